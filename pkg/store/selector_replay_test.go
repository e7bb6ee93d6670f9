// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package store_test

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"connectrpc.com/connect"
	querierv1 "github.com/grafana/pyroscope/api/gen/proto/go/querier/v1"
	"github.com/grafana/pyroscope/api/gen/proto/go/querier/v1/querierv1connect"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/emberscope/emberscope/internal/fixtures"
	"github.com/emberscope/emberscope/internal/pyroscopereplay"
)

// selectorRecordings is the folder of the stack trace selector recordings
// (74–87), made against their own server state.
func selectorRecordings() string { return filepath.Join(fixtures.Pyroscope(), "selectors") }

// TestReplayPyroscopeStackTraceSelectors pushes the two profiles the
// selector recordings were made with (selectors/README.md), as they were
// pushed, then sends every recorded request and compares the store's answer
// with Pyroscope's: flamegraphs node for node, pprof answers stack for stack
// with their lines, series points. They cover a call site matched from the
// root only, an empty call site ignored, maxNodes applied under the
// selection, the pprof of a call site, SelectSeries ignoring the selector,
// go_pgo's keep_locations and aggregate_callees on pprof answers, go_pgo
// winning over a call site there, and go_pgo not applied to a flamegraph.
func TestReplayPyroscopeStackTraceSelectors(t *testing.T) {
	exs, err := pyroscopereplay.Load(selectorRecordings())
	require.NoError(t, err)
	require.Len(t, exs, 14, "every recorded selector exchange is replayed")
	srv := newSelectorReplayStore(t)
	for _, ex := range exs {
		t.Run(ex.Name, func(t *testing.T) {
			status, body := send(t, srv, &ex)
			require.Equal(t, ex.Status, status, "HTTP status; answer: %s", body)
			compareAnswer(t, &ex, body, profileIDs{})
		})
	}
}

// TestDiffSidesSelectedByCallSite sends a Diff whose two sides are the
// request of recording 74 (a call site from the root): Pyroscope answers
// each side of a Diff as the SelectMergeStacktraces of that side, so each
// side's nodes are those of Pyroscope's recorded answer to 74.
func TestDiffSidesSelectedByCallSite(t *testing.T) {
	exs, err := pyroscopereplay.Load(selectorRecordings())
	require.NoError(t, err)
	rec := exs[0]
	require.Equal(t, "74-merge-call-site-main", rec.Name)
	var side querierv1.SelectMergeStacktracesRequest
	require.NoError(t, protojson.Unmarshal(rec.Body, &side))
	want, err := pyroscopereplay.Decode(rec.RPC(), rec.Response)
	require.NoError(t, err)
	wantNodes := pyroscopereplay.FlameGraphNodes(want.(*querierv1.SelectMergeStacktracesResponse).Flamegraph)

	srv := newSelectorReplayStore(t)
	querier := querierv1connect.NewQuerierServiceClient(srv.Client(), srv.URL)
	resp, err := querier.Diff(context.Background(), connect.NewRequest(&querierv1.DiffRequest{Left: &side, Right: &side}))
	require.NoError(t, err)
	var left, right []string
	for _, n := range pyroscopereplay.DiffNodes(resp.Msg.Flamegraph) {
		f := strings.SplitN(n, " ", 8) // level xL totalL selfL xR totalR selfR name
		left = append(left, strings.Join([]string{f[0], f[1], f[2], f[3], f[7]}, " "))
		right = append(right, strings.Join([]string{f[0], f[4], f[5], f[6], f[7]}, " "))
	}
	require.Equal(t, wantNodes, left, "left side")
	require.Equal(t, wantNodes, right, "right side")
}

// newSelectorReplayStore starts a store holding what the selector
// recordings' server held: the two profiles pushed as they were pushed.
func newSelectorReplayStore(t *testing.T) *httptest.Server {
	t.Helper()
	srv := newReplayStore(t)
	for _, push := range []struct{ name, file string }{
		{"rec-chain{env=demo}", "deep-chain.cpu.selectors.pb.gz"},
		{"rec-labeled{env=demo}", "labeled.cpu.selectors.pb.gz"},
	} {
		raw := fixtures.Read(t, "pyroscope/selectors/pushed-profiles/"+push.file)
		resp, err := srv.Client().Post(srv.URL+"/ingest?"+url.Values{"name": {push.name}, "format": {"pprof"}}.Encode(),
			"application/octet-stream", bytes.NewReader(raw))
		require.NoError(t, err)
		require.NoError(t, resp.Body.Close())
		require.Equal(t, http.StatusOK, resp.StatusCode, push.name)
	}
	return srv
}
