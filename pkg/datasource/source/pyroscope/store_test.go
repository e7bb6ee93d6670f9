// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package pyroscope_test

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/grafana/grafana-plugin-sdk-go/backend/httpclient"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/internal/pproforacle"
	"github.com/emberscope/emberscope/pkg/datasource/plugin/plugintest"
	"github.com/emberscope/emberscope/pkg/datasource/source"
	"github.com/emberscope/emberscope/pkg/datasource/source/pyroscope"
	"github.com/emberscope/emberscope/pkg/profile/flame"
	"github.com/emberscope/emberscope/pkg/profile/model"
)

const cpuType = "process_cpu:cpu:nanoseconds:cpu:nanoseconds"

// TestClientAgainstStore checks every call of the client against the
// embedded store holding a recorded CPU profile; per-function numbers are
// compared with google/pprof's (the oracle: go tool pprof -top).
func TestClientAgainstStore(t *testing.T) {
	url := plugintest.Store(t)
	raw := plugintest.CPUProfile(t)
	plugintest.Ingest(t, url, "shop{env=ci}", raw)
	want := plugintest.Pprof(t, plugintest.CPUFile, "cpu")
	total, flat := want.Total, want.Flat()

	c, err := pyroscope.New(url, httpclient.Options{})
	require.NoError(t, err)
	ctx := context.Background()
	now := time.Now()
	rng := source.TimeRange{From: now.Add(-time.Hour), To: now.Add(time.Minute)}
	sel := source.Selection{ProfileTypeID: cpuType, LabelSelector: `{service_name="shop"}`, Range: rng}

	types, err := c.ProfileTypes(ctx, rng)
	require.NoError(t, err)
	var ids []string
	for _, pt := range types {
		ids = append(ids, pt.String())
		if pt.String() == cpuType {
			require.Equal(t, model.ProfileType{Name: "process_cpu", SampleType: "cpu", SampleUnit: "nanoseconds", PeriodType: "cpu", PeriodUnit: "nanoseconds"}, pt)
		}
	}
	require.Contains(t, ids, cpuType)

	names, err := c.LabelNames(ctx, source.LabelsRequest{Matchers: []string{`{service_name="shop"}`}, Range: rng})
	require.NoError(t, err)
	require.Subset(t, names, []string{"env", "route", "service_name"})
	values, err := c.LabelValues(ctx, "route", source.LabelsRequest{Matchers: []string{"{}"}, Range: rng})
	require.NoError(t, err)
	require.ElementsMatch(t, plugintest.Routes, values)

	tree, err := c.MergeStacks(ctx, source.StacksRequest{Selection: sel})
	require.NoError(t, err)
	require.Equal(t, total, tree.Total())
	self := map[string]int64{}
	tree.Walk(func(n flame.NodeID, _ int) {
		if s := tree.Self(n); s != 0 {
			self[tree.Name(n)] += s
		}
	})
	require.Equal(t, flat, self, "every function's self = pprof flat")

	series, err := c.Series(ctx, source.SeriesRequest{Selection: sel, GroupBy: []string{"route"}, Step: time.Minute})
	require.NoError(t, err)
	var sum float64
	for _, s := range series {
		for _, pt := range s.Points {
			sum += pt.Value
		}
	}
	require.Equal(t, float64(total), sum)

	merged, err := c.MergeProfile(ctx, source.StacksRequest{Selection: sel})
	require.NoError(t, err)
	var mergedBytes bytes.Buffer
	require.NoError(t, merged.Write(&mergedBytes))
	mWant := pproforacle.TopOfBytes(t, mergedBytes.Bytes(), pproforacle.Options{SampleType: "cpu"})
	require.Equal(t, total, mWant.Total, "merged pprof total")
	require.Equal(t, flat, mWant.Flat(), "merged pprof: every function's flat, as google/pprof reads it")

	heat, err := c.Heatmap(ctx, source.HeatmapRequest{Selection: sel, Step: time.Minute})
	require.NoError(t, err)
	var profiles int32
	for _, s := range heat {
		for _, n := range s.Counts {
			profiles += n
		}
	}
	require.Positive(t, profiles)
}

// TestServerRejection shows the server's own message for a request it refuses.
func TestServerRejection(t *testing.T) {
	url := plugintest.Store(t)
	c, err := pyroscope.New(url, httpclient.Options{})
	require.NoError(t, err)
	now := time.Now()
	_, err = c.MergeStacks(context.Background(), source.StacksRequest{Selection: source.Selection{
		ProfileTypeID: cpuType, LabelSelector: `{service_name=}`, Range: source.TimeRange{From: now.Add(-time.Hour), To: now},
	}})
	require.Error(t, err)
	var pe *model.Error
	require.ErrorAs(t, err, &pe)
	require.Equal(t, model.KindBadRequest, pe.Kind)
	require.Equal(t, 400, pe.HTTPStatus())
	require.NotContains(t, err.Error(), "invalid_argument", "the server's message, without the code")
	t.Logf("server message: %v", err)
}
