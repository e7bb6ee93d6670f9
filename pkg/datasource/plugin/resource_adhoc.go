// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/grafana/grafana-plugin-sdk-go/backend"
	"github.com/grafana/grafana-plugin-sdk-go/data"

	"github.com/emberscope/emberscope/pkg/datasource/adhoc"
	"github.com/emberscope/emberscope/pkg/datasource/source"
	"github.com/emberscope/emberscope/pkg/datasource/source/filesource"
	"github.com/emberscope/emberscope/pkg/profile/fileformat"
	"github.com/emberscope/emberscope/pkg/profile/model"
)

// adhocFiles holds the files opened through every datasource instance of
// the process, each bound to its uploader (org, login and datasource uid):
// an instance made again when its settings change keeps them.
var adhocFiles = adhoc.New(adhoc.DefaultOptions())

// adhocRoutes serves the ad hoc profiles API, shaped as Pyroscope's
// adhocprofiles.v1 (Upload, Get, List, Diff), one file per route:
//
//	POST adhoc/upload?name=&size=&offset=&uploadId=  a chunk of a file (resource_adhoc_upload.go)
//	GET  adhoc/list                                  the caller's open files (resource_adhoc_list.go)
//	POST adhoc/get                                   frames of files under a query (resource_adhoc_get.go)
//	POST adhoc/diff                                  a baseline against a comparison (resource_adhoc_diff.go)
//	POST adhoc/export                                what get or diff shows, as pprof (resource_adhoc_export.go)
func (d *Datasource) adhocRoutes(mux *http.ServeMux) {
	mux.HandleFunc("/adhoc/upload", d.route("adhocUpload", d.adhocUpload))
	mux.HandleFunc("/adhoc/list", d.route("adhocList", d.adhocList))
	mux.HandleFunc("/adhoc/get", d.route("adhocGet", d.adhocGet))
	mux.HandleFunc("/adhoc/diff", d.route("adhocDiff", d.adhocDiff))
	mux.HandleFunc("/adhoc/export", d.adhocExport)
}

// adhocUser is who the request's plugin context says calls: files are
// bound to it, so that one user never reads another's.
func adhocUser(ctx context.Context) string {
	pc := backend.PluginConfigFromContext(ctx)
	login := ""
	if u := backend.UserFromContext(ctx); u != nil {
		login = u.Login
	} else if pc.User != nil {
		login = pc.User.Login
	}
	uid := ""
	if pc.DataSourceInstanceSettings != nil {
		uid = pc.DataSourceInstanceSettings.UID
	}
	//lint:ignore SA1019 Grafana before namespaces names the organisation only by its id
	return fmt.Sprintf("%d\x00%s\x00%s", pc.OrgID, uid, login)
}

// adhocMeta describes an open file, as AdHocProfilesProfileMetadata plus
// what the page shows.
type adhocMeta struct {
	ID              string   `json:"id"`
	Name            string   `json:"name"`
	UploadedAt      int64    `json:"uploadedAt"`
	Format          string   `json:"format"`
	ProfileTypes    []string `json:"profileTypes"`
	Samples         int      `json:"samples"`
	TruncatedStacks int      `json:"truncatedStacks,omitempty"`
}

func metaOf(e *adhoc.Entry) adhocMeta {
	src := filesource.New(e.File)
	types, _ := src.ProfileTypes(context.Background(), source.TimeRange{})
	ids := make([]string, len(types))
	for i, t := range types {
		ids[i] = t.String()
	}
	return adhocMeta{
		ID: e.ID, Name: e.Name, UploadedAt: e.UploadedAt.UnixMilli(), Format: string(e.File.Format),
		ProfileTypes: ids, Samples: len(e.File.Profile.Sample), TruncatedStacks: e.File.TruncatedStacks,
	}
}

// adhocError makes a refused file the user's error (its message names the
// file and what was wrong) and a missing id a 404.
func adhocError(err error) error {
	var fe *fileformat.Error
	switch {
	case err == nil:
		return nil
	case errors.As(err, &fe):
		return userErrorf("%v", err)
	case errors.Is(err, adhoc.ErrNotFound):
		return &model.Error{Kind: model.KindNotFound, Msg: err.Error(), Err: err}
	}
	return userErrorf("%v", err)
}

// adhocEntries returns the caller's open files of ids.
func adhocEntries(ctx context.Context, ids []string) ([]*adhoc.Entry, error) {
	if len(ids) == 0 {
		return nil, userErrorf("no profile file: give the ids of open files")
	}
	out := make([]*adhoc.Entry, len(ids))
	for i, id := range ids {
		e, err := adhocFiles.Get(adhocUser(ctx), id)
		if err != nil {
			return nil, adhocError(fmt.Errorf("file %q: %w", id, err))
		}
		out[i] = e
	}
	return out, nil
}

func filesOf(es []*adhoc.Entry) []*fileformat.File {
	out := make([]*fileformat.File, len(es))
	for i, e := range es {
		out[i] = e.File
	}
	return out
}

// overFiles is a datasource like d that reads files instead of its server.
func (d *Datasource) overFiles(src *filesource.Source) *Datasource {
	c := &Datasource{settings: d.settings, src: src, now: d.now, serverURL: "files", logger: d.logger, streams: d.streams, uid: d.uid, name: d.name}
	c.mux = c.queryMux()
	return c
}

// adhocQuery runs one query of the panel's shape (queryType, profileTypeId,
// labelSelector, expr, maxNodes, ...) over files and returns its frames.
// Files have no time: the range is the last hour, for the shape's sake.
func (c *Datasource) adhocQuery(ctx context.Context, q json.RawMessage) (data.Frames, error) {
	var head struct {
		QueryType string          `json:"queryType"`
		Live      json.RawMessage `json:"live"`
	}
	if len(q) == 0 {
		return nil, userErrorf("no query: send {\"queryType\": \"profile\", \"profileTypeId\": ...}")
	}
	if err := json.Unmarshal(q, &head); err != nil {
		return nil, userErrorf("invalid query JSON: %v", err)
	}
	if len(head.Live) > 0 && string(head.Live) != "null" && string(head.Live) != "false" {
		return nil, userErrorf("a file has no live mode")
	}
	if head.QueryType == "" {
		head.QueryType = QueryTypeProfile
	}
	now := c.now()
	req := &backend.QueryDataRequest{
		PluginContext: backend.PluginConfigFromContext(ctx),
		Queries: []backend.DataQuery{{
			RefID: "A", QueryType: head.QueryType, JSON: q, MaxDataPoints: 1000, Interval: time.Minute,
			TimeRange: backend.TimeRange{From: now.Add(-time.Hour), To: now},
		}},
	}
	resp, err := c.QueryData(ctx, req)
	if err != nil {
		return nil, err
	}
	r := resp.Responses["A"]
	if r.Error != nil {
		if r.Status >= 400 && r.Status < 500 {
			return nil, userErrorf("%v", r.Error)
		}
		return nil, r.Error
	}
	return r.Frames, nil
}

// readJSON decodes a POST body of at most max bytes into v.
func readJSON(r *http.Request, v any) error {
	if r.Method != http.MethodPost {
		return userErrorf("%s is not allowed: use POST with a JSON body", r.Method)
	}
	if err := json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(v); err != nil {
		return userErrorf("request body is not the JSON expected: %v", err)
	}
	return nil
}

// queryInt reads an optional non-negative integer query parameter.
func queryInt(r *http.Request, name string) (int64, error) {
	s := strings.TrimSpace(r.URL.Query().Get(name))
	if s == "" {
		return 0, nil
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v < 0 {
		return 0, userErrorf("%s: %q is not a non-negative integer", name, s)
	}
	return v, nil
}

// stacksOf is the stacks request of a selection.
func stacksOf(sel source.Selection) source.StacksRequest {
	return source.StacksRequest{Selection: sel}
}
