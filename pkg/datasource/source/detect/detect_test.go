// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package detect_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"connectrpc.com/connect"
	querierv1 "github.com/grafana/pyroscope/api/gen/proto/go/querier/v1"
	"github.com/grafana/pyroscope/api/gen/proto/go/querier/v1/querierv1connect"
	typesv1 "github.com/grafana/pyroscope/api/gen/proto/go/types/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/pkg/datasource/source/detect"
	"github.com/emberscope/emberscope/pkg/datasource/source/parca/parcatest"
	"github.com/emberscope/emberscope/pkg/profile/model"
)

// querier is a minimal Pyroscope querier: it answers ProfileTypes only.
type querier struct {
	querierv1connect.UnimplementedQuerierServiceHandler
	types []*typesv1.ProfileType
}

func (q *querier) ProfileTypes(context.Context, *connect.Request[querierv1.ProfileTypesRequest]) (*connect.Response[querierv1.ProfileTypesResponse], error) {
	return connect.NewResponse(&querierv1.ProfileTypesResponse{ProfileTypes: q.types}), nil
}

// newPyroscope serves the querier under prefix ("" for the root).
func newPyroscope(t *testing.T, prefix string, q *querier) *httptest.Server {
	t.Helper()
	path, h := querierv1connect.NewQuerierServiceHandler(q)
	mux := http.NewServeMux()
	mux.Handle(prefix+path, http.StripPrefix(prefix, h))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

func TestDetectParca(t *testing.T) {
	srv := parcatest.NewServer(t, parcatest.DefaultDir)
	kind, err := detect.Detect(context.Background(), srv.URL, srv.Client())
	require.NoError(t, err)
	assert.Equal(t, model.ServerParca, kind)
}

func TestDetectPyroscope(t *testing.T) {
	cpu := &typesv1.ProfileType{ID: "process_cpu:cpu:nanoseconds:cpu:nanoseconds", Name: "process_cpu",
		SampleType: "cpu", SampleUnit: "nanoseconds", PeriodType: "cpu", PeriodUnit: "nanoseconds"}
	for name, tc := range map[string]struct {
		prefix string
		q      *querier
	}{
		"with types":           {"", &querier{types: []*typesv1.ProfileType{cpu}}},
		"empty server":         {"", &querier{}},
		"behind a path prefix": {"/pyroscope", &querier{types: []*typesv1.ProfileType{cpu}}},
	} {
		t.Run(name, func(t *testing.T) {
			srv := newPyroscope(t, tc.prefix, tc.q)
			kind, err := detect.Detect(context.Background(), srv.URL+tc.prefix+"/", srv.Client())
			require.NoError(t, err)
			assert.Equal(t, model.ServerPyroscope, kind)
		})
	}
}

func TestDetectNeither(t *testing.T) {
	// A web app answering every path with HTML, as a UI's fallback does.
	html := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte("<html></html>"))
	}))
	t.Cleanup(html.Close)
	_, err := detect.Detect(context.Background(), html.URL, html.Client())
	require.Error(t, err)
	assert.Contains(t, err.Error(), "answers neither as Pyroscope nor as Parca")
	assert.Contains(t, err.Error(), "pyroscope probe (POST "+html.URL+"/querier.v1.QuerierService/ProfileTypes): HTTP 200 but Content-Type \"text/html; charset=utf-8\"")
	assert.Contains(t, err.Error(), "parca probe (GET "+html.URL+"/api/profiles/types)")

	// JSON, but not what either server writes.
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"status":"ok"}`))
	}))
	t.Cleanup(other.Close)
	_, err = detect.Detect(context.Background(), other.URL, other.Client())
	require.Error(t, err)
	assert.Contains(t, err.Error(), `the JSON answer has no "types"`)
	assert.Contains(t, err.Error(), `the JSON answer has "status", not only profileTypes`)
}

func TestDetectAuthFailure(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusUnauthorized)
	}))
	t.Cleanup(srv.Close)
	_, err := detect.Detect(context.Background(), srv.URL, srv.Client())
	require.Error(t, err)
	assert.Contains(t, err.Error(), "HTTP 401")
	assert.Contains(t, err.Error(), "check the datasource's authentication settings")
}

func TestDetectUnreachableAndSilent(t *testing.T) {
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	_, err := detect.Detect(context.Background(), closed.URL, nil)
	require.ErrorContains(t, err, "connection refused")

	// A server that never answers: the caller's deadline ends the probes.
	block := make(chan struct{})
	silent := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-block:
		}
	}))
	t.Cleanup(func() { close(block); silent.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err = detect.Detect(ctx, silent.URL, silent.Client())
	require.ErrorContains(t, err, "context deadline exceeded")
}

func TestBadInput(t *testing.T) {
	_, err := detect.Detect(context.Background(), "", nil)
	require.ErrorContains(t, err, "URL is empty")
	_, err = detect.Detect(context.Background(), "ftp://x", nil)
	require.ErrorContains(t, err, `"ftp://x" must start with http:// or https://`)
}
