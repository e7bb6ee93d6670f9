// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package store_test

import (
	"bytes"
	"compress/gzip"
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
	typesv1 "github.com/grafana/pyroscope/api/gen/proto/go/types/v1"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/internal/fixtures"
	"github.com/emberscope/emberscope/internal/pproforacle"
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
	require.NoError(t, json.Unmarshal(fixtures.Read(t, "pyroscope/spans-query-params.json"), &p))
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
	require.NoError(t, json.Unmarshal(fixtures.Read(t, "pyroscope/45-series-spans.response.json"), &recorded))
	require.Len(t, recorded.LabelsSet, 6, "Pyroscope's series for two pushes of rec-spans")

	st, err := store.Open(store.Options{Dir: t.TempDir(), NoIngestWindow: true, NoRetention: true})
	require.NoError(t, err)
	defer func() { require.NoError(t, st.Close()) }()
	srv := newTestHTTPServer(t, st)
	var profiles []*profile.Profile
	spans := map[string]bool{}
	for _, f := range spanProfiles {
		p, err := profile.ParseData(fixtures.Read(t, f))
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
		p := profiles[i%2] // the two profiles Pyroscope's 45 was answered after
		if i >= 2 {
			p = profiles[i%3]
		}
		// Only the time differs from push to push: the parsed profile is
		// written again with it (no deep copy), gzipped at the fastest level,
		// as the compression level is no part of the claim.
		p.TimeNanos = base + int64(i)*10e9
		var raw, buf bytes.Buffer
		require.NoError(t, p.WriteUncompressed(&raw))
		zw, err := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
		require.NoError(t, err)
		_, err = zw.Write(raw.Bytes())
		require.NoError(t, err)
		require.NoError(t, zw.Close())
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

// TestSpanAndTraceSelectorsMatchPprofTagfocus sends the recorded span
// profiles to the store as one service and selects spans and traces
// (the recorded selectors, plus span and trace ids read from the profiles
// with google/pprof): each answer's total, on SelectMergeStacktraces and on
// SelectMergeSpanProfile, and each function's self value equal google/pprof's
// over the same profiles with -tagfocus span_id=^(…)$ (or trace_id).
func TestSpanAndTraceSelectorsMatchPprofTagfocus(t *testing.T) {
	params := loadSpanQueryParams(t)
	st, err := store.Open(store.Options{Dir: t.TempDir(), NoIngestWindow: true, NoRetention: true})
	require.NoError(t, err)
	defer func() { require.NoError(t, st.Close()) }()
	srv := newTestHTTPServer(t, st)
	var paths []string
	spanIDs, traceIDs := []string{}, []string{}
	for i, f := range spanProfiles {
		raw := fixtures.Read(t, f)
		paths = append(paths, fixtures.Path(t, f))
		resp, err := srv.Client().Post(srv.URL+"/ingest?"+url.Values{"name": {"spans{env=demo}"}, "format": {"pprof"}}.Encode(), "application/octet-stream", bytes.NewReader(raw))
		require.NoError(t, err)
		require.NoError(t, resp.Body.Close())
		require.Equal(t, http.StatusOK, resp.StatusCode)
		p, err := profile.ParseData(raw)
		require.NoError(t, err)
		// A few span and trace ids of each profile, spread over its samples.
		for j, s := range p.Sample {
			if j%97 == i && len(s.Label["span_id"]) > 0 {
				spanIDs = append(spanIDs, s.Label["span_id"][0])
				traceIDs = append(traceIDs, s.Label["trace_id"][0])
			}
		}
	}
	require.GreaterOrEqual(t, len(spanIDs), 5)
	querier := querierv1connect.NewQuerierServiceClient(srv.Client(), srv.URL)
	const cpu = "process_cpu:cpu:nanoseconds:cpu:nanoseconds"
	oracle := func(label string, ids []string) (int64, map[string]int64) {
		var total int64
		flat := map[string]int64{}
		for _, p := range paths {
			r := pproforacle.Top(t, p, pproforacle.Options{SampleType: "cpu", LabelIn: map[string][]string{label: ids}})
			total += r.Total
			for n, v := range r.Flat() {
				flat[n] += v
			}
		}
		return total, flat
	}
	maxNodes := int64(1 << 20)
	check := func(name string, fg *querierv1.FlameGraph, total int64, flat map[string]int64) {
		got := decodeFlamegraph(t, fg)
		require.Equal(t, total, got.total, "%s: total", name)
		require.Equal(t, flat, withoutZero(got.self), "%s: self per function", name)
	}
	cases := [][]string{params.SpanSelectorTwo, params.SpanSelectorOne, spanIDs[:1], spanIDs[1:3], spanIDs}
	for _, ids := range cases {
		total, flat := oracle("span_id", ids)
		require.NotZero(t, total, "pprof finds the spans %v", ids)
		resp, err := querier.SelectMergeStacktraces(context.Background(), connect.NewRequest(&querierv1.SelectMergeStacktracesRequest{
			ProfileTypeID: cpu, LabelSelector: `{service_name="spans"}`, Start: params.Start, End: params.End, MaxNodes: &maxNodes, SpanSelector: ids,
		}))
		require.NoError(t, err)
		check(fmt.Sprintf("spanSelector %v", ids), resp.Msg.Flamegraph, total, flat)
		//lint:ignore SA1019 Grafana's Pyroscope datasource sends this RPC; the store serves it as Pyroscope v2.2.1 does
		sp, err := querier.SelectMergeSpanProfile(context.Background(), connect.NewRequest(&querierv1.SelectMergeSpanProfileRequest{
			ProfileTypeID: cpu, LabelSelector: `{service_name="spans"}`, Start: params.Start, End: params.End, MaxNodes: &maxNodes, SpanSelector: ids,
		}))
		require.NoError(t, err)
		check(fmt.Sprintf("SelectMergeSpanProfile %v", ids), sp.Msg.Flamegraph, total, flat)
	}
	for _, ids := range [][]string{{params.TraceID}, traceIDs[:2], traceIDs} {
		total, flat := oracle("trace_id", ids)
		require.NotZero(t, total)
		resp, err := querier.SelectMergeStacktraces(context.Background(), connect.NewRequest(&querierv1.SelectMergeStacktracesRequest{
			ProfileTypeID: cpu, LabelSelector: `{service_name="spans"}`, Start: params.Start, End: params.End, MaxNodes: &maxNodes, TraceIdSelector: ids,
		}))
		require.NoError(t, err)
		check(fmt.Sprintf("traceIdSelector %v", ids), resp.Msg.Flamegraph, total, flat)
	}
}

// TestSpansSurviveRestart stores a span-labelled profile, closes the store
// and opens its directory again: the span selector still selects that
// span's samples (google/pprof's -tagfocus total) and the profile keeps the
// id its exemplar gave before the restart.
func TestSpansSurviveRestart(t *testing.T) {
	params := loadSpanQueryParams(t)
	dir := t.TempDir()
	const f = "pyroscope/pushed-profiles/span-1.cpu.pb.gz"
	query := func(st *store.Store) (int64, string) {
		srv := httptest.NewServer(st.Handler())
		defer srv.Close()
		q := querierv1connect.NewQuerierServiceClient(srv.Client(), srv.URL)
		resp, err := q.SelectMergeStacktraces(context.Background(), connect.NewRequest(&querierv1.SelectMergeStacktracesRequest{
			ProfileTypeID: "process_cpu:cpu:nanoseconds:cpu:nanoseconds", LabelSelector: `{service_name="restart"}`,
			Start: params.Start, End: params.End, SpanSelector: params.SpanSelectorTwo,
		}))
		require.NoError(t, err)
		series, err := q.SelectSeries(context.Background(), connect.NewRequest(&querierv1.SelectSeriesRequest{
			ProfileTypeID: "process_cpu:cpu:nanoseconds:cpu:nanoseconds", LabelSelector: `{service_name="restart"}`,
			Start: params.Start, End: params.End, Step: 3600, ExemplarType: typesv1.ExemplarType_EXEMPLAR_TYPE_INDIVIDUAL,
		}))
		require.NoError(t, err)
		require.Len(t, series.Msg.Series, 1)
		require.Len(t, series.Msg.Series[0].Points, 1)
		require.Len(t, series.Msg.Series[0].Points[0].Exemplars, 1)
		return resp.Msg.Flamegraph.Total, series.Msg.Series[0].Points[0].Exemplars[0].ProfileId
	}
	st, err := store.Open(store.Options{Dir: dir, NoIngestWindow: true, NoRetention: true})
	require.NoError(t, err)
	srv := httptest.NewServer(st.Handler())
	resp, err := srv.Client().Post(srv.URL+"/ingest?"+url.Values{"name": {"restart"}, "format": {"pprof"}}.Encode(), "application/octet-stream", bytes.NewReader(fixtures.Read(t, f)))
	require.NoError(t, err)
	require.NoError(t, resp.Body.Close())
	require.Equal(t, http.StatusOK, resp.StatusCode)
	srv.Close()
	before, id := query(st)
	require.NoError(t, st.Close())

	want := pproforacle.Top(t, fixtures.Path(t, f), pproforacle.Options{SampleType: "cpu", LabelIn: map[string][]string{"span_id": params.SpanSelectorTwo}}).Total
	require.Equal(t, want, before)
	st, err = store.Open(store.Options{Dir: dir, NoIngestWindow: true, NoRetention: true})
	require.NoError(t, err)
	defer func() { require.NoError(t, st.Close()) }()
	after, idAfter := query(st)
	require.Equal(t, want, after, "span selector after a restart")
	require.Equal(t, id, idAfter, "profile id after a restart")
}
