// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package pyroscope_test

import (
	"context"
	"github.com/emberscope/emberscope/internal/pproforacle"
	"github.com/emberscope/emberscope/pkg/profile/model"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	querierv1 "github.com/grafana/pyroscope/api/gen/proto/go/querier/v1"

	"github.com/emberscope/emberscope/internal/fixtures"
	"github.com/emberscope/emberscope/internal/pyroscopereplay"
	"github.com/emberscope/emberscope/pkg/datasource/source"
	"github.com/emberscope/emberscope/pkg/datasource/source/pyroscope"
	"github.com/emberscope/emberscope/pkg/profile/flame"
)

// The recorded range: 2026-12-01 07:00 to 07:55 UTC.
var recorded = source.TimeRange{From: time.UnixMilli(1796108400000), To: time.UnixMilli(1796111700000)}

func replayClient(t *testing.T) (*pyroscope.Client, *pyroscopereplay.Server) {
	t.Helper()
	srv := pyroscopereplay.NewServer(t)
	t.Cleanup(func() { assert.Empty(t, srv.Unmatched(), "every call of the client was recorded") })
	return pyroscope.NewWithHTTPClient(srv.URL, srv.Client()), srv
}

// recordedFlame is the tree of a recorded flamegraph answer, decoded here
// independently of the client: per function name its self, and the number
// of nodes.
func recordedFlame(t *testing.T, ex *pyroscopereplay.Exchange) (total int64, self map[string]int64, nodes int) {
	t.Helper()
	m, err := pyroscopereplay.Decode(ex.RPC(), ex.Response)
	require.NoError(t, err)
	fg := m.(*querierv1.SelectMergeStacktracesResponse).Flamegraph
	self = map[string]int64{}
	for _, l := range fg.Levels {
		for i := 0; i+3 < len(l.Values); i += 4 {
			self[fg.Names[l.Values[i+3]]] += l.Values[i+2]
			nodes++
		}
	}
	delete(self, "total")
	return fg.Total, self, nodes
}

func treeSelf(tr *flame.Tree) (map[string]int64, int) {
	self := map[string]int64{}
	tr.Walk(func(n flame.NodeID, _ int) {
		if n != flame.Root {
			self[tr.Name(n)] += tr.Self(n)
		}
	})
	for k, v := range self {
		if v == 0 {
			delete(self, k)
		}
	}
	return self, tr.Len()
}

// pprofSelf is google/pprof's flat value per function of a pushed profile
// (the oracle: go tool pprof -top), named as Pyroscope names them.
func pprofSelf(t *testing.T, file, sampleType string) (int64, map[string]int64) {
	t.Helper()
	r := pproforacle.Top(t, fixtures.Path(t, "pyroscope/"+file), pproforacle.Options{SampleType: sampleType})
	return r.Total, r.Flat()
}

func nonZero(m map[string]int64) map[string]int64 {
	out := map[string]int64{}
	for k, v := range m {
		if v != 0 {
			out[k] = v
		}
	}
	return out
}

// TestClientAgainstPyroscopeRecordings drives every call of the client
// against Pyroscope v2.2.1's recorded answers.
func TestClientAgainstPyroscopeRecordings(t *testing.T) {
	c, srv := replayClient(t)
	ctx := context.Background()

	types, err := c.ProfileTypes(ctx, recorded)
	require.NoError(t, err)
	require.Len(t, types, 6)
	assert.Equal(t, model.ProfileType{Name: "memory", SampleType: "alloc_space",
		SampleUnit: "bytes", PeriodType: "space", PeriodUnit: "bytes"}, types[1])

	names, err := c.LabelNames(ctx, source.LabelsRequest{Range: recorded})
	require.NoError(t, err)
	assert.Contains(t, names, "category")
	names, err = c.LabelNames(ctx, source.LabelsRequest{Matchers: []string{`{service_name="rec-labeled"}`}, Range: recorded})
	require.NoError(t, err)
	assert.Contains(t, names, "route")
	values, err := c.LabelValues(ctx, "service_name", source.LabelsRequest{Range: recorded})
	require.NoError(t, err)
	assert.Len(t, values, 7)
	values, err = c.LabelValues(ctx, "env", source.LabelsRequest{Range: recorded})
	require.NoError(t, err)
	assert.Equal(t, []string{`"demo"`, "demo"}, values, "the quoted /ingest value is a value of its own")
	values, err = c.LabelValues(ctx, "category", source.LabelsRequest{Matchers: []string{`{service_name="rec-labeled"}`}, Range: recorded})
	require.NoError(t, err)
	assert.Equal(t, []string{"authentication", "observability :: metrics", "observability :: tracing"}, values)

	// Flamegraphs: the tree the client builds has the recorded nodes, and
	// the self of every function is google/pprof's for the pushed profile.
	for _, tc := range []struct {
		exchange, selector, typ, file, sampleType string
	}{
		{"15-merge-labeled-cpu", `{service_name="rec-labeled"}`, cpuType, "pushed-profiles/labeled.cpu.redated.pb.gz", "cpu"},
		{"19-merge-deep-cpu", `{service_name="rec-deep"}`, cpuType, "pushed-profiles/deep.cpu.redated.pb.gz", "cpu"},
		{"20-merge-mem-alloc-space-ingest", `{service_name="rec-mem"}`, "memory:alloc_space:bytes:space:bytes", "pushed-profiles/bench-regexp.mem.redated.pb.gz", "alloc_space"},
		{"21-merge-mem-alloc-space-push", `{service_name="rec-push-mem"}`, "memory:alloc_space:bytes:space:bytes", "pushed-profiles/bench-regexp.mem.push1.pb.gz", "alloc_space"},
		{"22-merge-mem-inuse-space-ingest", `{service_name="rec-mem"}`, "memory:inuse_space:bytes:space:bytes", "pushed-profiles/bench-regexp.mem.redated.pb.gz", "inuse_space"},
		{"40-merge-deep-chain-cpu", `{service_name="rec-chain"}`, cpuType, "pushed-profiles/deep-chain.cpu.redated.pb.gz", "cpu"},
	} {
		t.Run(tc.exchange, func(t *testing.T) {
			tr, err := c.MergeStacks(ctx, source.StacksRequest{MaxNodes: 16384, Selection: source.Selection{
				ProfileTypeID: tc.typ, LabelSelector: tc.selector, Range: recorded,
			}})
			require.NoError(t, err)
			wantTotal, wantSelf, wantNodes := recordedFlame(t, srv.Exchange(t, tc.exchange))
			self, nodes := treeSelf(tr)
			assert.Equal(t, wantTotal, tr.Total())
			assert.Equal(t, wantNodes, nodes, "nodes")
			assert.Equal(t, nonZero(wantSelf), self)
			pTotal, pSelf := pprofSelf(t, tc.file, tc.sampleType)
			assert.Equal(t, pTotal, tr.Total(), "google/pprof's total")
			assert.Equal(t, nonZero(pSelf), self, "google/pprof's flat per function")
		})
	}
	// A heap profile's alloc_space is the pprof's own: Pyroscope computes no delta.
	tr, err := c.MergeStacks(ctx, source.StacksRequest{MaxNodes: 16384, Selection: source.Selection{
		ProfileTypeID: "memory:alloc_space:bytes:space:bytes", LabelSelector: `{service_name="rec-mem"}`, Range: recorded,
	}})
	require.NoError(t, err)
	assert.Equal(t, int64(245_095_928), tr.Total())

	// maxNodes 10: what was cut comes back as "other" nodes.
	tr, err = c.MergeStacks(ctx, source.StacksRequest{MaxNodes: 10, Selection: source.Selection{
		ProfileTypeID: cpuType, LabelSelector: `{service_name="rec-labeled"}`, Range: recorded,
	}})
	require.NoError(t, err)
	var others int
	tr.Walk(func(n flame.NodeID, _ int) {
		if tr.Kind(n) == flame.KindOther {
			others++
		}
	})
	assert.Positive(t, others)
	assert.Equal(t, int64(3_770_000_000), tr.Total())

	// An unknown profile type is an empty tree, not an error.
	tr, err = c.MergeStacks(ctx, source.StacksRequest{Selection: source.Selection{ProfileTypeID: "nope:x:y:z:w", LabelSelector: "{}", Range: recorded}})
	require.NoError(t, err)
	assert.Zero(t, tr.Total())

	// Series: points at the profiles' times, groupBy, limit, a step wider than the range.
	env := source.Selection{ProfileTypeID: cpuType, LabelSelector: `{env="demo"}`, Range: recorded}
	series, err := c.Series(ctx, source.SeriesRequest{Selection: env, Step: time.Minute})
	require.NoError(t, err)
	require.Len(t, series, 1)
	assert.Equal(t, []source.Point{
		{Time: time.UnixMilli(1796109600000).UTC(), Value: 3.77e9},
		{Time: time.UnixMilli(1796109720000).UTC(), Value: 23.52e9},
		{Time: time.UnixMilli(1796109960000).UTC(), Value: 3.57e9},
	}, series[0].Points)
	series, err = c.Series(ctx, source.SeriesRequest{Selection: env, Step: time.Minute, GroupBy: []string{"service_name"}})
	require.NoError(t, err)
	require.Len(t, series, 3)
	assert.Equal(t, model.Labels{{Name: "service_name", Value: "rec-sort"}}, series[0].Labels, "largest first")
	series, err = c.Series(ctx, source.SeriesRequest{Selection: env, Step: time.Hour})
	require.NoError(t, err)
	assert.Empty(t, series)

	merged, err := c.MergeProfile(ctx, source.StacksRequest{MaxNodes: 16384, Selection: source.Selection{
		ProfileTypeID: cpuType, LabelSelector: `{service_name="rec-labeled"}`, Range: recorded,
	}})
	require.NoError(t, err)
	var mTotal int64
	for _, s := range merged.Sample {
		mTotal += s.Value[0]
	}
	assert.Equal(t, int64(3_770_000_000), mTotal)

	heat, err := c.Heatmap(ctx, source.HeatmapRequest{Selection: env, Step: time.Minute})
	require.NoError(t, err)
	require.Len(t, heat, 3)
	assert.Equal(t, time.UnixMilli(1796109600000).UTC(), heat[0].Time)
	assert.Equal(t, int32(1), heat[0].Counts[0])
	assert.InDelta(t, 3.57e9, heat[0].YMin[0], 1)
}

// TestClientErrorsFromPyroscopeRecordings checks how the client reports
// Pyroscope's recorded refusals.
func TestClientErrorsFromPyroscopeRecordings(t *testing.T) {
	c, _ := replayClient(t)
	ctx := context.Background()
	for name, sel := range map[string]source.Selection{
		"32 bad selector":     {ProfileTypeID: cpuType, LabelSelector: "{service_name=}", Range: recorded},
		"34 bad profile type": {ProfileTypeID: "process_cpu", LabelSelector: "{}", Range: recorded},
		"35 start after end":  {ProfileTypeID: cpuType, LabelSelector: "{}", Range: source.TimeRange{From: recorded.To, To: recorded.From}},
	} {
		_, err := c.MergeStacks(ctx, source.StacksRequest{Selection: sel})
		var pe *model.Error
		require.ErrorAs(t, err, &pe, name)
		assert.Equal(t, model.KindBadRequest, pe.Kind, name)
		assert.Equal(t, http.StatusBadRequest, pe.HTTPStatus(), name)
		assert.NotEmpty(t, pe.Msg, name)
	}
	_, err := c.MergeStacks(ctx, source.StacksRequest{MaxNodes: 2_000_000, Selection: source.Selection{ProfileTypeID: cpuType, LabelSelector: "{}", Range: recorded}})
	var pe *model.Error
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, model.KindBadRequest, pe.Kind)
	assert.Contains(t, pe.Msg, "1048576")
}
