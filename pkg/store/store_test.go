// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package store_test

import (
	"context"
	"net/url"
	"strconv"
	"testing"

	"connectrpc.com/connect"
	pushv1 "github.com/grafana/pyroscope/api/gen/proto/go/push/v1"
	querierv1 "github.com/grafana/pyroscope/api/gen/proto/go/querier/v1"
	typesv1 "github.com/grafana/pyroscope/api/gen/proto/go/types/v1"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/internal/fixtures"
	"github.com/emberscope/emberscope/internal/pproforacle"
)

const (
	cpuType     = "process_cpu:cpu:nanoseconds:cpu:nanoseconds"
	samplesType = "process_cpu:samples:count:cpu:nanoseconds"
)

// cpuFile is a recorded CPU profile with pprof label category=parse|hash|sort
// and samples without the label.
const cpuFile = "categories.cpu.pb.gz"

func cpuData(t *testing.T) []byte {
	t.Helper()
	return fixtures.Profile(t, cpuFile)
}

// oracle is google/pprof's report (go tool pprof -top) on the recorded CPU
// profile, for one sample type and, optionally, one category value.
func oracle(t *testing.T, sampleType string, category ...string) pproforacle.Report {
	t.Helper()
	o := pproforacle.Options{SampleType: sampleType}
	if len(category) > 0 {
		o.Labels = map[string]string{"category": category[0]}
	}
	return pproforacle.Top(t, fixtures.ProfilePath(t, cpuFile), o)
}

func ingestParams(name string) url.Values {
	return url.Values{"name": {name}, "format": {"pprof"}, "spyName": {"gospy"}}
}

// TestIngestCPUProfileMatchesPprof checks every function's self against
// google/pprof's flat (the oracle: go tool pprof -top).
func TestIngestCPUProfileMatchesPprof(t *testing.T) {
	s := newServer(t, t.TempDir())
	data := cpuData(t)
	status, text := s.ingest(ingestParams("app{env=test}"), "", data)
	require.Equal(t, 200, status, text)

	for sampleType, typeID := range map[string]string{"samples": samplesType, "cpu": cpuType} {
		want := oracle(t, sampleType)
		got := s.flame(typeID, `{service_name="app"}`, 1<<20)
		require.Equal(t, want.Total, got.total, typeID)
		require.Equal(t, want.Flat(), got.self, typeID)
	}
	// Sample labels are series labels; samples without one form their own series.
	for _, cat := range []string{"parse", "hash", "sort", ""} {
		want := oracle(t, "cpu", cat)
		require.Positive(t, want.Total, "the recorded profile has samples for category %q", cat)
		got := s.flame(cpuType, `{service_name="app", category="`+cat+`"}`, 1<<20)
		require.Equal(t, want.Total, got.total, "category %q", cat)
		require.Equal(t, want.Flat(), got.self, "category %q", cat)
	}
	got := s.flame(cpuType, `{env="test", pyroscope_spy="gospy"}`, 0)
	require.Equal(t, oracle(t, "cpu").Total, got.total, "request labels and spyName become series labels")

	ctx := context.Background()
	names, err := s.querier.LabelNames(ctx, connect.NewRequest(&typesv1.LabelNamesRequest{Start: 1, End: farFuture}))
	require.NoError(t, err)
	for _, want := range []string{"service_name", "__name__", "__profile_type__", "category", "env", "pyroscope_spy"} {
		require.Contains(t, names.Msg.Names, want)
	}
	values, err := s.querier.LabelValues(ctx, connect.NewRequest(&typesv1.LabelValuesRequest{
		Name: "category", Matchers: []string{`{__profile_type__="` + cpuType + `"}`}, Start: 1, End: farFuture,
	}))
	require.NoError(t, err)
	require.Equal(t, []string{"hash", "parse", "sort"}, values.Msg.Names)
	types, err := s.querier.ProfileTypes(ctx, connect.NewRequest(&querierv1.ProfileTypesRequest{Start: 1, End: farFuture}))
	require.NoError(t, err)
	var ids []string
	for _, pt := range types.Msg.ProfileTypes {
		ids = append(ids, pt.ID)
	}
	require.Equal(t, []string{cpuType, samplesType}, ids)
}

func TestSelectSeriesGroupBySumsToTotal(t *testing.T) {
	s := newServer(t, t.TempDir())
	data := cpuData(t)
	status, text := s.ingest(ingestParams("app"), "", data)
	require.Equal(t, 200, status, text)
	total := oracle(t, "cpu").Total

	resp, err := s.querier.SelectSeries(context.Background(), connect.NewRequest(&querierv1.SelectSeriesRequest{
		ProfileTypeID: cpuType, LabelSelector: `{service_name="app"}`, Start: 1, End: farFuture,
		GroupBy: []string{"category"}, Step: 15,
	}))
	require.NoError(t, err)
	require.Len(t, resp.Msg.Series, 4, "parse, hash, sort and the series without the label")
	var sum float64
	for _, ser := range resp.Msg.Series {
		for _, pt := range ser.Points {
			sum += pt.Value
		}
	}
	require.Equal(t, float64(total), sum)

	_, err = s.querier.SelectSeries(context.Background(), connect.NewRequest(&querierv1.SelectSeriesRequest{
		ProfileTypeID: cpuType, Start: 1, End: farFuture,
	}))
	require.Equal(t, connect.CodeInvalidArgument, connect.CodeOf(err), "step is required")
}

// TestPushMatchesPprof checks a pushed profile's functions against google/pprof
// (the oracle: go tool pprof -top).
func TestPushMatchesPprof(t *testing.T) {
	s := newServer(t, t.TempDir())
	data := cpuData(t)
	_, err := s.pusher.Push(context.Background(), connect.NewRequest(&pushv1.PushRequest{Series: []*pushv1.RawProfileSeries{{
		Labels:  []*typesv1.LabelPair{{Name: "__name__", Value: "process_cpu"}, {Name: "service_name", Value: "pushed"}},
		Samples: []*pushv1.RawSample{{RawProfile: data}},
	}}}))
	require.NoError(t, err)
	want := oracle(t, "cpu")
	got := s.flame(cpuType, `{service_name="pushed"}`, 1<<20)
	require.Equal(t, want.Total, got.total)
	require.Equal(t, want.Flat(), got.self)
	want = oracle(t, "cpu", "hash")
	got = s.flame(cpuType, `{service_name="pushed", category="hash"}`, 1<<20)
	require.Equal(t, want.Total, got.total)
	require.Equal(t, want.Flat(), got.self)
}

func TestRestartKeepsData(t *testing.T) {
	s := newServer(t, t.TempDir())
	data := cpuData(t)
	status, text := s.ingest(ingestParams("app"), "", data)
	require.Equal(t, 200, status, text)
	before := s.flame(cpuType, `{service_name="app"}`, 1<<20)
	require.NotZero(t, before.total)

	s = s.restart()
	after := s.flame(cpuType, `{service_name="app"}`, 1<<20)
	require.Equal(t, before, after)

	// New writes after a restart reuse the interned strings and stacks.
	status, text = s.ingest(ingestParams("app"), "", data)
	require.Equal(t, 200, status, text)
	twice := s.flame(cpuType, `{service_name="app"}`, 1<<20)
	require.Equal(t, 2*before.total, twice.total)
	require.Equal(t, before.nodes, twice.nodes)
}

func TestMaxNodesAndErrors(t *testing.T) {
	s := newServer(t, t.TempDir())
	status, text := s.ingest(ingestParams("app"), "", cpuData(t))
	require.Equal(t, 200, status, text)
	full := s.flame(cpuType, "{}", 1<<20)
	small := s.flame(cpuType, "{}", 3)
	require.Equal(t, full.total, small.total, "truncation keeps the total")
	require.True(t, small.names["other"], "truncated nodes fold into other")
	require.Less(t, small.nodes, full.nodes)

	ctx := context.Background()
	tooMany := int64(1<<20 + 1)
	cases := map[string]*querierv1.SelectMergeStacktracesRequest{
		"max_nodes":    {ProfileTypeID: cpuType, Start: 1, End: farFuture, MaxNodes: &tooMany},
		"selector":     {ProfileTypeID: cpuType, LabelSelector: `{service_name=}`, Start: 1, End: farFuture},
		"profile type": {ProfileTypeID: "cpu", Start: 1, End: farFuture},
		"time range":   {ProfileTypeID: cpuType, Start: farFuture, End: 1},
	}
	for name, req := range cases {
		_, err := s.querier.SelectMergeStacktraces(ctx, connect.NewRequest(req))
		require.Equal(t, connect.CodeInvalidArgument, connect.CodeOf(err), name)
	}
}

func TestDiffAndMergeProfile(t *testing.T) {
	s := newServer(t, t.TempDir())
	data := cpuData(t)
	status, text := s.ingest(ingestParams("app"), "", data)
	require.Equal(t, 200, status, text)
	ctx := context.Background()
	left := &querierv1.SelectMergeStacktracesRequest{ProfileTypeID: cpuType, LabelSelector: `{category="parse"}`, Start: 1, End: farFuture}
	right := &querierv1.SelectMergeStacktracesRequest{ProfileTypeID: cpuType, LabelSelector: `{category="hash"}`, Start: 1, End: farFuture}
	diff, err := s.querier.Diff(ctx, connect.NewRequest(&querierv1.DiffRequest{Left: left, Right: right}))
	require.NoError(t, err)
	lt := oracle(t, "cpu", "parse").Total
	rt := oracle(t, "cpu", "hash").Total
	fg := diff.Msg.Flamegraph
	require.Equal(t, lt, fg.LeftTicks)
	require.Equal(t, rt, fg.RightTicks)
	require.Equal(t, []int64{0, lt, 0, 0, rt, 0, 0}, fg.Levels[0].Values)
	for _, lv := range fg.Levels {
		require.Zero(t, len(lv.Values)%7)
	}

	//lint:ignore SA1019 the store serves querier.v1 SelectMergeProfile as Pyroscope v2.2.1 does
	merged, err := s.querier.SelectMergeProfile(ctx, connect.NewRequest(&querierv1.SelectMergeProfileRequest{ProfileTypeID: cpuType, Start: 1, End: farFuture}))
	require.NoError(t, err)
	var sum int64
	for _, smp := range merged.Msg.Sample {
		sum += smp.Value[0]
	}
	require.Equal(t, oracle(t, "cpu").Total, sum)
	require.Equal(t, "cpu", merged.Msg.StringTable[merged.Msg.SampleType[0].Type])
}

func TestFoldedIngest(t *testing.T) {
	s := newServer(t, t.TempDir())
	body := "main;work;hot 3\nmain;work 1\nmain;idle 0\n"
	params := url.Values{"name": {"folded"}, "format": {"folded"}, "sampleRate": {"100"}, "from": {strconv.FormatInt(1700000000, 10)}}
	status, text := s.ingest(params, "", []byte(body))
	require.Equal(t, 200, status, text)
	got := s.flame(cpuType, `{service_name="folded"}`, 0)
	require.Equal(t, int64(4e7), got.total)
	require.Equal(t, map[string]int64{"hot": 3e7, "work": 1e7}, got.self)
	require.False(t, got.names["idle"], "zero samples are dropped")
}
