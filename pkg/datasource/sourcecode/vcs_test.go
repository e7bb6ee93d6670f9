// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package sourcecode

import (
	"context"
	"encoding/base64"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"connectrpc.com/connect"
	vcsv1 "github.com/grafana/pyroscope/api/gen/proto/go/vcs/v1"
	"github.com/grafana/pyroscope/api/gen/proto/go/vcs/v1/vcsv1connect"
	"github.com/stretchr/testify/require"
)

// fakeVCS answers vcs.v1.VCSService.GetFile as Pyroscope does: the file's
// content base64-encoded.
type fakeVCS struct {
	vcsv1connect.UnimplementedVCSServiceHandler
	got *vcsv1.GetFileRequest
}

func (f *fakeVCS) GetFile(_ context.Context, r *connect.Request[vcsv1.GetFileRequest]) (*connect.Response[vcsv1.GetFileResponse], error) {
	f.got = r.Msg
	if r.Msg.LocalPath != "/src/app/main.go" {
		return nil, connect.NewError(connect.CodeNotFound, errors.New("file not found"))
	}
	return connect.NewResponse(&vcsv1.GetFileResponse{
		Content: base64.StdEncoding.EncodeToString([]byte("package main\n")),
		URL:     "https://elsewhere.invalid/ignored",
	}), nil
}

func TestPyroscopeVCS(t *testing.T) {
	fake := &fakeVCS{}
	mux := http.NewServeMux()
	mux.Handle(vcsv1connect.NewVCSServiceHandler(fake))
	srv := httptest.NewServer(mux)
	defer srv.Close()
	p := NewPyroscopeVCS(srv.URL, srv.Client())

	req := Request{Path: "/src/app/main.go", Function: "main.main", Repository: "github.com/acme/app", Ref: "abc123", RootPath: "/src/app"}
	f, err := p.Find(context.Background(), req)
	require.NoError(t, err)
	require.Equal(t, "package main\n", string(f.Content))
	require.Equal(t, "https://github.com/acme/app/blob/abc123/main.go", f.Link, "the link is built from the labels, not taken from the answer")
	require.Equal(t, "https://github.com/acme/app", fake.got.RepositoryURL)
	require.Equal(t, "abc123", fake.got.Ref)
	require.Equal(t, "/src/app", fake.got.RootPath)
	require.Equal(t, "main.main", fake.got.FunctionName)

	req.Path = "/src/app/other.go"
	_, err = p.Find(context.Background(), req)
	require.ErrorIs(t, err, ErrNotFound)

	_, err = p.Find(context.Background(), Request{Path: "/src/app/main.go"})
	require.ErrorContains(t, err, "no service_repository label")
}
