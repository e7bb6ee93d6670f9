// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package parca

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/pkg/datasource/source"
	"github.com/emberscope/emberscope/pkg/datasource/source/parca/parcatest"
	"github.com/emberscope/emberscope/pkg/profile/model"
)

// The error answers are replayed from the recordings through the client's
// own request path, so what a user reads is what Parca's answer becomes.
func TestAPIErrors(t *testing.T) {
	srv := parcatest.NewServer(t, parcatest.DefaultDir)
	c, err := New(Options{URL: srv.URL, HTTPClient: srv.Client()})
	require.NoError(t, err)
	const cpuQuery = `process_cpu:cpu:nanoseconds:cpu:nanoseconds:delta{job="demo-labeled"}`
	merge := url.Values{
		"mode": {"MODE_MERGE"}, "merge.query": {cpuQuery},
		"merge.start": {"2026-11-29T07:50:00Z"}, "merge.end": {"2026-11-29T08:50:00Z"},
	}
	with := func(v url.Values, k, val string) url.Values {
		out := url.Values{}
		for kk, vv := range v {
			out[kk] = vv
		}
		out.Set(k, val)
		return out
	}
	tests := []struct {
		name   string
		path   string
		query  url.Values
		status int
		code   int
		kind   model.ErrorKind
		msg    string
	}{
		{
			name: "series is not implemented", path: "/api/profiles/series",
			query:  url.Values{"match": {cpuQuery}, "start": {"2026-11-29T07:50:00Z"}, "end": {"2026-11-29T08:50:00Z"}},
			status: 501, code: 12, kind: model.KindUnimplemented,
			msg: "parca does not implement GET /api/profiles/series (HTTP 501: method Series not implemented)",
		},
		{
			name: "single time miss is a text/plain 404", path: "/api/profiles/query",
			query: url.Values{
				"mode": {"MODE_SINGLE_UNSPECIFIED"}, "single.query": {cpuQuery},
				"single.time": {"2026-11-29T08:35:01Z"}, "reportType": {"REPORT_TYPE_PPROF"},
			},
			status: 404, code: -1, kind: model.KindNotFound,
			msg: "parca answered 404 Not Found (GET /api/profiles/query): no data matches",
		},
		{
			name: "bad report type", path: "/api/profiles/query",
			query:  with(merge, "reportType", "REPORT_TYPE_NOPE"),
			status: 400, code: 3, kind: model.KindBadRequest,
			msg: `parca rejected the request (GET /api/profiles/query): parsing field "report_type": "REPORT_TYPE_NOPE" is not a valid value`,
		},
		{
			name: "server failure keeps code and message", path: "/api/profiles/query",
			query:  with(merge, "reportType", "REPORT_TYPE_FLAMECHART"),
			status: 500, code: 13, kind: model.KindServer,
			msg: "HTTP 500, gRPC code 13: failed to generate arrow flamegraph",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out map[string]any
			err := c.get(context.Background(), tt.path, tt.query, &out)
			var apiErr *APIError
			require.ErrorAs(t, err, &apiErr)
			assert.Equal(t, tt.status, apiErr.StatusCode)
			assert.Equal(t, tt.code, apiErr.Code)
			assert.Contains(t, err.Error(), tt.msg)
			assert.Equal(t, tt.kind, model.KindOf(err))
		})
	}
	assert.Empty(t, srv.Unmatched())
}

func TestErrorsHaveKinds(t *testing.T) {
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	c, err := New(Options{URL: closed.URL})
	require.NoError(t, err)
	_, err = c.ProfileTypes(context.Background(), source.TimeRange{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "cannot reach the parca server at "+closed.URL+" (GET /api/profiles/types)")
	assert.Contains(t, err.Error(), "connection refused")
	assert.Equal(t, model.KindUnreachable, model.KindOf(err))

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = c.ProfileTypes(ctx, source.TimeRange{})
	assert.ErrorIs(t, err, context.Canceled)

	e := newAPIError("GET", "/api/profiles/query", 400, "application/json", []byte(`{"code":3,"message":"failed to parse query"}`))
	assert.Equal(t, http.StatusBadRequest, e.HTTPStatus())
	assert.Equal(t, http.StatusBadGateway, newAPIError("GET", "/", 500, "application/json", []byte(`{"code":13}`)).HTTPStatus())
}
