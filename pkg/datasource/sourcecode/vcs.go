// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package sourcecode

import (
	"context"
	"encoding/base64"
	"fmt"
	"net/http"

	"connectrpc.com/connect"
	vcsv1 "github.com/grafana/pyroscope/api/gen/proto/go/vcs/v1"
	"github.com/grafana/pyroscope/api/gen/proto/go/vcs/v1/vcsv1connect"
)

// PyroscopeVCS asks a Pyroscope server's vcs.v1.VCSService.GetFile, which
// reads the file from the repository of the profile's labels with the
// server's own GitHub application.
type PyroscopeVCS struct {
	url          string
	client       vcsv1connect.VCSServiceClient
	MaxFileBytes int64
}

// NewPyroscopeVCS returns the provider for the Pyroscope server at url,
// called through hc (which carries the datasource's authentication).
func NewPyroscopeVCS(url string, hc *http.Client) *PyroscopeVCS {
	return &PyroscopeVCS{url: url, client: vcsv1connect.NewVCSServiceClient(hc, url)}
}

// Name implements Provider.
func (p *PyroscopeVCS) Name() string { return "the profile server's VCS service at " + p.url }

// Find implements Provider.
func (p *PyroscopeVCS) Find(ctx context.Context, r Request) (*File, error) {
	repo, err := ParseRepository(r.Repository)
	if err != nil {
		return nil, err
	}
	limit := p.MaxFileBytes
	if limit <= 0 {
		limit = DefaultMaxFileBytes
	}
	resp, err := p.client.GetFile(ctx, connect.NewRequest(&vcsv1.GetFileRequest{
		RepositoryURL: "https://" + repo.Host + "/" + repo.Owner + "/" + repo.Name,
		Ref:           r.Ref,
		LocalPath:     r.Path,
		RootPath:      r.RootPath,
		FunctionName:  r.Function,
	}))
	if err != nil {
		if connect.CodeOf(err) == connect.CodeNotFound || connect.CodeOf(err) == connect.CodeUnimplemented {
			return nil, notFoundf("%v", err)
		}
		return nil, fmt.Errorf("GetFile: %v", err)
	}
	if int64(len(resp.Msg.Content)) > limit*4/3+4 {
		return nil, refusef("the VCS service sent %s as %d bytes of base64, over the cap of %d bytes", r.Path, len(resp.Msg.Content), limit)
	}
	content, err := base64.StdEncoding.DecodeString(resp.Msg.Content)
	if err != nil {
		return nil, fmt.Errorf("the VCS service sent %s with content that is not base64: %v", r.Path, err)
	}
	// The link is built from the labels, not taken from the answer.
	link := ""
	if rel, err := repo.RelativePath(r.Path, r.RootPath); err == nil {
		link = repo.Link(r.Ref, rel)
	}
	return &File{Content: content, Origin: fmt.Sprintf("the profile server's VCS service: %s at %s", repo, refOrDefault(r.Ref)), Provider: "vcs", Link: link}, nil
}
