// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package pyroscope_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/internal/fixtures"
	"github.com/emberscope/emberscope/internal/pproforacle"
	"github.com/emberscope/emberscope/pkg/datasource/source"
	"github.com/emberscope/emberscope/pkg/profile/model"
)

// spanParams are the ids the span recordings (41-63) used.
type spanParams struct {
	Start           int64    `json:"start"`
	End             int64    `json:"end"`
	SpanSelectorTwo []string `json:"spanSelectorTwo"`
	SpanSelectorOne []string `json:"spanSelectorOne"`
	TraceID         string   `json:"traceId"`
}

func readSpanParams(t *testing.T) (spanParams, source.TimeRange) {
	t.Helper()
	var p spanParams
	require.NoError(t, json.Unmarshal(fixtures.Read(t, "pyroscope/spans-query-params.json"), &p))
	return p, source.TimeRange{From: time.UnixMilli(p.Start), To: time.UnixMilli(p.End)}
}

// spanOracle is google/pprof's total of the samples labelled span_id=id
// (-tagfocus) in the two profiles pushed for rec-spans, and its flat per
// function.
func spanOracle(t *testing.T, ids ...string) (int64, map[string]int64) {
	t.Helper()
	var total int64
	flat := map[string]int64{}
	for _, f := range []string{"span-1.cpu.pb.gz", "span-2.cpu.pb.gz"} {
		path := fixtures.Path(t, "pyroscope/pushed-profiles/"+f)
		for _, id := range ids {
			r := pproforacle.Top(t, path, pproforacle.Options{SampleType: "cpu", Labels: map[string]string{"span_id": id}})
			total += r.Total
			for n, v := range r.Flat() {
				flat[n] += v
			}
		}
	}
	return total, flat
}

// TestClientSpanSelectorAsksTheSpanProfile: a span selector goes to
// SelectMergeSpanProfile, as Grafana's Pyroscope datasource sends it
// (recording 49), and the tree holds exactly those spans' samples, per
// function as google/pprof's -tagfocus span_id=... gives them.
func TestClientSpanSelectorAsksTheSpanProfile(t *testing.T) {
	c, _ := replayClient(t)
	p, rng := readSpanParams(t)
	tr, err := c.MergeStacks(context.Background(), source.StacksRequest{MaxNodes: 16384, Selection: source.Selection{
		ProfileTypeID: cpuType, LabelSelector: `{service_name="rec-spans"}`, Range: rng, SpanSelector: p.SpanSelectorTwo,
	}})
	require.NoError(t, err)
	total, flat := spanOracle(t, p.SpanSelectorTwo...)
	assert.Equal(t, int64(60_000_000), total, "pprof -tagfocus: 30 ms each (README)")
	assert.Equal(t, total, tr.Total())
	self, _ := treeSelf(tr)
	assert.Equal(t, flat, nonZero(self))
}

// TestClientProfileIDSelector: profile ids go in SelectMergeStacktraces'
// profileIdSelector (recording 60) and the tree is that one profile, as
// google/pprof reads the pushed file.
func TestClientProfileIDSelector(t *testing.T) {
	c, _ := replayClient(t)
	_, rng := readSpanParams(t)
	tr, err := c.MergeStacks(context.Background(), source.StacksRequest{MaxNodes: 16384, Selection: source.Selection{
		ProfileTypeID: cpuType, LabelSelector: `{env="demo"}`, Range: rng, ProfileIDs: []string{"25b7a4ca-04d8-40d8-96a0-57b70fa5208a"},
	}})
	require.NoError(t, err)
	want := pproforacle.Top(t, fixtures.Path(t, "pyroscope/pushed-profiles/span-1.cpu.pb.gz"), pproforacle.Options{SampleType: "cpu"})
	assert.Equal(t, want.Total, tr.Total())
	self, _ := treeSelf(tr)
	assert.Equal(t, want.Flat(), nonZero(self))
}

// TestClientSeriesExemplars: includeExemplars asks EXEMPLAR_TYPE_INDIVIDUAL
// (recording 54); each point carries its profile's id, time, value, labels.
func TestClientSeriesExemplars(t *testing.T) {
	c, _ := replayClient(t)
	_, rng := readSpanParams(t)
	series, err := c.Series(context.Background(), source.SeriesRequest{
		Selection: source.Selection{ProfileTypeID: cpuType, LabelSelector: `{env="demo"}`, Range: rng},
		Step:      time.Minute, Exemplars: true,
	})
	require.NoError(t, err)
	require.Len(t, series, 1)
	require.Len(t, series[0].Points, 1)
	exs := series[0].Points[0].Exemplars
	require.Len(t, exs, 1)
	e := exs[0]
	assert.Equal(t, "25b7a4ca-04d8-40d8-96a0-57b70fa5208a", e.ProfileID)
	assert.Equal(t, time.UnixMilli(1796181351311).UTC(), e.Time)
	want := pproforacle.Top(t, fixtures.Path(t, "pyroscope/pushed-profiles/span-1.cpu.pb.gz"), pproforacle.Options{SampleType: "cpu"})
	assert.Equal(t, float64(want.Total), e.Value, "the exemplar's value is its profile's total")
	assert.Equal(t, "rec-spans", e.Labels.Get("service_name"))
}

// TestClientSpanHeatmap: heatmapType span asks HEATMAP_QUERY_TYPE_SPAN with
// span exemplars (recording 57); the exemplars carry span ids and values.
func TestClientSpanHeatmap(t *testing.T) {
	c, _ := replayClient(t)
	_, rng := readSpanParams(t)
	slots, err := c.Heatmap(context.Background(), source.HeatmapRequest{
		Selection: source.Selection{ProfileTypeID: cpuType, LabelSelector: `{service_name="rec-spans"}`, Range: rng},
		Step:      time.Minute, Spans: true, Exemplars: true,
	})
	require.NoError(t, err)
	require.NotEmpty(t, slots)
	var spans int32
	var exs []source.Exemplar
	for _, s := range slots {
		for _, n := range s.Counts {
			spans += n
		}
		exs = append(exs, s.Exemplars...)
	}
	assert.Equal(t, int32(603), spans, "cells count spans: 497+100+6 in the recorded slot")
	require.NotEmpty(t, exs)
	for _, e := range exs {
		assert.Len(t, e.SpanID, 16, "a span exemplar names its span")
		assert.Empty(t, e.ProfileID)
		assert.NotZero(t, e.Value)
	}
	one := exs[0]
	assert.Equal(t, "c59390961efaa202", one.SpanID)
	total, _ := spanOracle(t, one.SpanID)
	assert.Equal(t, float64(total), one.Value, "a span exemplar's value is its samples' total, as pprof -tagfocus gives it")
}

// TestClientBadSpanIDIsTheServersError: Pyroscope answers a span id that is
// not hex with 500 unknown (recording 52); the client reports it.
func TestClientBadSpanIDIsTheServersError(t *testing.T) {
	c, _ := replayClient(t)
	_, rng := readSpanParams(t)
	_, err := c.MergeStacks(context.Background(), source.StacksRequest{Selection: source.Selection{
		ProfileTypeID: cpuType, LabelSelector: `{service_name="rec-spans"}`, Range: rng, SpanSelector: []string{"not-hex"},
	}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "invalid span id length")
	var me *model.Error
	require.ErrorAs(t, err, &me)
}
