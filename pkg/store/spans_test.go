// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package store_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"

	"connectrpc.com/connect"
	"github.com/google/pprof/profile"
	querierv1 "github.com/grafana/pyroscope/api/gen/proto/go/querier/v1"
	"github.com/grafana/pyroscope/api/gen/proto/go/querier/v1/querierv1connect"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/internal/testdata"
	"github.com/emberscope/emberscope/pkg/store"
)

// spanProfiles are the three real span-labelled CPU profiles pushed to
// Pyroscope in recordings 41–43 (otel-profiling-go with the OpenTelemetry
// SDK: the samples taken inside a span have span_id, trace_id and span_name
// labels, 97% of the CPU time).
var spanProfiles = []string{
	"pyroscope/pushed-profiles/span-1.cpu.pb.gz",
	"pyroscope/pushed-profiles/span-2.cpu.pb.gz",
	"pyroscope/pushed-profiles/span-3.cpu.pb.gz",
}

// spanQueryParams is spans-query-params.json: the range, span ids, trace id
// and pushed sample ID the span recordings used.
type spanQueryParams struct {
	Start           int64    `json:"start"`
	End             int64    `json:"end"`
	SpanSelectorTwo []string `json:"spanSelectorTwo"`
	SpanSelectorOne []string `json:"spanSelectorOne"`
	TraceID         string   `json:"traceId"`
	PushedProfileID string   `json:"pushedProfileId"`
}

func loadSpanQueryParams(t testing.TB) spanQueryParams {
	var p spanQueryParams
	require.NoError(t, json.Unmarshal(testdata.Read(t, "pyroscope/spans-query-params.json"), &p))
	return p
}

// TestSpanLabelledPushesKeepTheSeriesCount pushes the recorded
// span-labelled profiles of one service 200 times in a row, each at its own
// time (each push carries hundreds of distinct span ids), to a store with its
// default limits: none is refused, and the series count is Pyroscope's for
// the same labels (recording 45: span_id and trace_id are no series labels,
// span_name is one), after 2 pushes as after 200.
func TestSpanLabelledPushesKeepTheSeriesCount(t *testing.T) {
	var recorded struct {
		LabelsSet []json.RawMessage `json:"labelsSet"`
	}
	require.NoError(t, json.Unmarshal(testdata.Read(t, "pyroscope/45-series-spans.response.json"), &recorded))
	require.Len(t, recorded.LabelsSet, 6, "Pyroscope's series for two pushes of rec-spans")

	st, err := store.Open(store.Options{Dir: t.TempDir(), NoIngestWindow: true, NoRetention: true})
	require.NoError(t, err)
	defer func() { require.NoError(t, st.Close()) }()
	srv := newTestHTTPServer(t, st)
	var profiles []*profile.Profile
	spans := map[string]bool{}
	for _, f := range spanProfiles {
		p, err := profile.ParseData(testdata.Read(t, f))
		require.NoError(t, err)
		for _, s := range p.Sample {
			if len(s.Label["span_id"]) > 0 {
				spans[s.Label["span_id"][0]] = true
			}
		}
		profiles = append(profiles, p)
	}
	require.Greater(t, len(spans), 600, "distinct span ids in the three profiles")
	base := profiles[0].TimeNanos
	querier := querierv1connect.NewQuerierServiceClient(srv.Client(), srv.URL)
	seriesCount := func() int {
		resp, err := querier.Series(context.Background(), connect.NewRequest(&querierv1.SeriesRequest{
			Matchers: []string{`{service_name="rec-spans"}`}, Start: base/1e6 - 1000, End: base/1e6 + 3600_000,
		}))
		require.NoError(t, err)
		return len(resp.Msg.LabelsSet)
	}
	for i := 0; i < 200; i++ {
		p := profiles[i%2].Copy() // the two profiles Pyroscope's 45 was answered after
		if i >= 2 {
			p = profiles[i%3].Copy()
		}
		p.TimeNanos = base + int64(i)*10e9
		var buf bytes.Buffer
		require.NoError(t, p.Write(&buf))
		resp, err := srv.Client().Post(srv.URL+"/ingest?"+url.Values{"name": {"rec-spans{env=demo}"}, "format": {"pprof"}}.Encode(),
			"application/octet-stream", &buf)
		require.NoError(t, err)
		require.NoError(t, resp.Body.Close())
		require.Equal(t, http.StatusOK, resp.StatusCode, "push %d", i+1)
		if i == 1 {
			require.Equal(t, len(recorded.LabelsSet), seriesCount(), "series after 2 pushes")
		}
	}
	require.Equal(t, len(recorded.LabelsSet), seriesCount(), fmt.Sprintf("series after 200 pushes of %d distinct spans", len(spans)))
}

func newTestHTTPServer(t *testing.T, st *store.Store) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(st.Handler())
	t.Cleanup(srv.Close)
	return srv
}
