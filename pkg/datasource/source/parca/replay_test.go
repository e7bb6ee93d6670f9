// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package parca_test

import (
	"context"
	"net/http"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/pprof/profile"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/internal/pproforacle"
	"github.com/emberscope/emberscope/pkg/datasource/source"
	"github.com/emberscope/emberscope/pkg/datasource/source/parca"
	"github.com/emberscope/emberscope/pkg/datasource/source/parca/parcatest"
	"github.com/emberscope/emberscope/pkg/profile/flame"
	"github.com/emberscope/emberscope/pkg/profile/model"
)

const (
	cpuType = "process_cpu:cpu:nanoseconds:cpu:nanoseconds"
	memType = "memory:alloc_space:bytes:space:bytes"
)

// recorded is the time range the recordings queried.
var recorded = source.TimeRange{
	From: time.Date(2026, 11, 29, 7, 50, 0, 0, time.UTC),
	To:   time.Date(2026, 11, 29, 8, 50, 0, 0, time.UTC),
}

// newReplay starts the replay of the recorded Parca exchanges and a client
// of it. At the end of the test it fails on requests that matched no
// recording unless the test expected them.
func newReplay(t *testing.T, expectUnmatched ...string) *parca.Client {
	t.Helper()
	srv := parcatest.NewServer(t, parcatest.DefaultDir)
	c, err := parca.New(parca.Options{URL: srv.URL, HTTPClient: srv.Client()})
	require.NoError(t, err)
	t.Cleanup(func() {
		for _, u := range srv.Unmatched() {
			ok := false
			for _, e := range expectUnmatched {
				ok = ok || strings.Contains(u, e)
			}
			assert.True(t, ok, "request matched no recording: %s", u)
		}
	})
	return c
}

func TestProfileTypes(t *testing.T) {
	c := newReplay(t)
	types, err := c.ProfileTypes(context.Background(), source.TimeRange{})
	require.NoError(t, err)
	require.Len(t, types, 6)
	ids := make([]string, len(types))
	for i, pt := range types {
		ids[i] = pt.String()
	}
	assert.Equal(t, []string{
		"memory:alloc_objects:count:space:bytes",
		memType,
		"memory:inuse_objects:count:space:bytes",
		"memory:inuse_space:bytes:space:bytes",
		cpuType,
		"process_cpu:samples:count:cpu:nanoseconds",
	}, ids)
	assert.Equal(t, model.ProfileType{
		Name: "process_cpu", SampleType: "cpu", SampleUnit: "nanoseconds",
		PeriodType: "cpu", PeriodUnit: "nanoseconds",
	}, types[4])

	// The window 08:38-08:50 holds only the memory profile.
	types, err = c.ProfileTypes(context.Background(), source.TimeRange{
		From: time.Date(2026, 11, 29, 8, 38, 0, 0, time.UTC), To: recorded.To,
	})
	require.NoError(t, err)
	require.Len(t, types, 4)
	for _, pt := range types {
		assert.Equal(t, "memory", pt.Name)
	}
}

func TestLabelNames(t *testing.T) {
	c := newReplay(t)
	ctx := context.Background()
	names, err := c.LabelNames(ctx, source.LabelsRequest{Range: recorded})
	require.NoError(t, err)
	assert.Equal(t, []string{"job"}, names)

	names, err = c.LabelNames(ctx, source.LabelsRequest{})
	require.NoError(t, err)
	assert.Equal(t, []string{"job"}, names)

	// __profile_type__ becomes Parca's profileType filter, which does filter.
	names, err = c.LabelNames(ctx, source.LabelsRequest{
		Matchers: []string{`{__profile_type__="foo:bar:baz:qux:quux"}`}, Range: recorded,
	})
	require.NoError(t, err)
	assert.Empty(t, names)

	_, err = c.LabelNames(ctx, source.LabelsRequest{Matchers: []string{`{job="x"`}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `matcher 1 "{job=\"x\""`)
}

func TestLabelValues(t *testing.T) {
	c := newReplay(t)
	ctx := context.Background()
	values, err := c.LabelValues(ctx, "job", source.LabelsRequest{Range: recorded})
	require.NoError(t, err)
	assert.Equal(t, []string{"demo-labeled", "demo-mem", "demo-sort"}, values)

	// A non-delta type keeps its ID; the matcher on job itself is applied here.
	for matcher, want := range map[string][]string{
		`{__profile_type__="` + memType + `"}`:                    {"demo-mem"},
		`{__profile_type__="` + memType + `", job=~"demo-.*"}`:    {"demo-mem"},
		`{__profile_type__="` + memType + `", job!="demo-mem"}`:   {},
		`{__profile_type__="` + memType + `", __name__="memory"}`: {"demo-mem"},
	} {
		values, err = c.LabelValues(ctx, "job", source.LabelsRequest{Matchers: []string{matcher}, Range: recorded})
		require.NoError(t, err, matcher)
		assert.ElementsMatch(t, want, values, matcher)
	}

	// A delta type gets :delta appended; 08:36-08:50 leaves out demo-labeled.
	values, err = c.LabelValues(ctx, "job", source.LabelsRequest{
		Matchers: []string{`{__profile_type__="` + cpuType + `"}`},
		Range:    source.TimeRange{From: time.Date(2026, 11, 29, 8, 36, 0, 0, time.UTC), To: recorded.To},
	})
	require.NoError(t, err)
	assert.Equal(t, []string{"demo-sort"}, values)

	// pprof sample labels are dropped by Parca.
	values, err = c.LabelValues(ctx, "category", source.LabelsRequest{Range: recorded})
	require.NoError(t, err)
	assert.Empty(t, values)
}

func TestSeries(t *testing.T) {
	c := newReplay(t)
	ctx := context.Background()
	series, err := c.Series(ctx, source.SeriesRequest{
		Selection: source.Selection{ProfileTypeID: cpuType, LabelSelector: `{job="demo-labeled"}`, Range: recorded},
		Step:      time.Minute,
	})
	require.NoError(t, err)
	require.Len(t, series, 1)
	assert.Empty(t, series[0].Labels)
	assert.Equal(t, []source.Point{{Time: time.Date(2026, 11, 29, 8, 35, 0, 0, time.UTC), Value: 3770000000}},
		series[0].Points)

	// Both CPU profiles fall into the 08:00 bucket of a 1h step.
	series, err = c.Series(ctx, source.SeriesRequest{
		Selection: source.Selection{ProfileTypeID: cpuType, Range: recorded},
		Step:      time.Hour,
	})
	require.NoError(t, err)
	require.Len(t, series, 1)
	assert.Equal(t, []source.Point{{Time: time.Date(2026, 11, 29, 8, 0, 0, 0, time.UTC), Value: 27290000000}},
		series[0].Points)
}

func TestSeriesGroupBy(t *testing.T) {
	c := newReplay(t)
	series, err := c.Series(context.Background(), source.SeriesRequest{
		Selection: source.Selection{ProfileTypeID: cpuType, LabelSelector: "{}", Range: recorded},
		GroupBy:   []string{"job"},
		Step:      time.Minute,
	})
	require.NoError(t, err)
	require.Len(t, series, 2)
	assert.Equal(t, model.Labels{{Name: "job", Value: "demo-labeled"}}, series[0].Labels)
	assert.Equal(t, []source.Point{{Time: time.Date(2026, 11, 29, 8, 35, 0, 0, time.UTC), Value: 3770000000}},
		series[0].Points)
	assert.Equal(t, model.Labels{{Name: "job", Value: "demo-sort"}}, series[1].Labels)
	assert.Equal(t, []source.Point{{Time: time.Date(2026, 11, 29, 8, 37, 0, 0, time.UTC), Value: 23520000000}},
		series[1].Points)
}

// A non-delta type comes back per label set even without sumBy; without a
// group-by the client sums it into one series without labels, as Pyroscope
// answers.
func TestSeriesNonDeltaIsSummed(t *testing.T) {
	c := newReplay(t)
	series, err := c.Series(context.Background(), source.SeriesRequest{
		Selection: source.Selection{ProfileTypeID: memType, Range: recorded},
		Step:      time.Minute,
	})
	require.NoError(t, err)
	require.Len(t, series, 1)
	assert.Empty(t, series[0].Labels)
	assert.Equal(t, []source.Point{{Time: time.Date(2026, 11, 29, 8, 39, 0, 0, time.UTC), Value: 245095928}},
		series[0].Points)
}

func TestSeriesErrors(t *testing.T) {
	c := newReplay(t)
	ctx := context.Background()

	// Parca's 400 message is the user's error.
	_, err := c.Series(ctx, source.SeriesRequest{
		Selection: source.Selection{ProfileTypeID: cpuType, LabelSelector: `{job="demo-labeled"`, Range: recorded},
		Step:      time.Minute,
	})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "failed to parse query")
	var apiErr *parca.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, http.StatusBadRequest, apiErr.StatusCode)
	assert.Equal(t, 3, apiErr.Code)

	// Parca's 404 text/plain for an unknown type means no data.
	series, err := c.Series(ctx, source.SeriesRequest{
		Selection: source.Selection{ProfileTypeID: "nope:cpu:nanoseconds:cpu:nanoseconds:delta", LabelSelector: "{}", Range: recorded},
		Step:      time.Minute,
	})
	require.NoError(t, err)
	assert.Empty(t, series)

	// Checked before sending.
	_, err = c.Series(ctx, source.SeriesRequest{
		Selection: source.Selection{ProfileTypeID: "process_cpu", Range: recorded}, Step: time.Minute,
	})
	require.ErrorContains(t, err, `parca: profile type "process_cpu" has 1 part; expected name:sample_type:sample_unit:period_type:period_unit`)
	_, err = c.Series(ctx, source.SeriesRequest{
		Selection: source.Selection{ProfileTypeID: cpuType, Range: source.TimeRange{From: recorded.To, To: recorded.From}},
	})
	require.ErrorContains(t, err, "time range start 2026-11-29T08:50:00Z is not before end 2026-11-29T07:50:00Z")
}

func TestMergeStacks(t *testing.T) {
	c := newReplay(t)
	tree, err := c.MergeStacks(context.Background(), source.StacksRequest{
		Selection: source.Selection{ProfileTypeID: cpuType, LabelSelector: `{job="demo-labeled"}`, Range: recorded},
	})
	require.NoError(t, err)
	assert.Equal(t, int64(3770000000), tree.Total())
	assert.Equal(t, flame.RootName, tree.Name(flame.Root))

	// The oracle is google/pprof (go tool pprof -top) on the pprof Parca
	// answered for the same query, with Pyroscope's names (internal/pproforacle).
	want := pproforacle.Top(t, filepath.Join(parcatest.DefaultDir, "21-query-merge-pprof.pb.gz"), pproforacle.Options{}).Flat()
	got := map[string]int64{}
	tree.Walk(func(n flame.NodeID, _ int) {
		if n != flame.Root {
			got[tree.Name(n)] += tree.Self(n)
		}
	})
	for name, v := range got {
		if v == 0 {
			delete(got, name)
		}
	}
	assert.Equal(t, want, got, "flat value per function: tree vs the recorded pprof")

	top := topFunctions(want, 5)
	assert.Equal(t, []string{
		"crypto/internal/fips140/sha256.blockSHANI", "runtime.asyncPreempt",
		"slices.partitionOrdered", "runtime.memmove", "runtime.memclrNoHeapPointers",
	}, top, "generic shapes are removed from names")
	assert.Equal(t, int64(290000000), got["slices.partitionOrdered"])
	assert.Equal(t, int64(330000000), got["crypto/internal/fips140/sha256.blockSHANI"])

	// Stacks run root first: runtime.main is a child of the root.
	var rootKids []string
	for _, k := range tree.Children(flame.Root) {
		rootKids = append(rootKids, tree.Name(k))
	}
	assert.Contains(t, rootKids, "runtime.main")

	// Each inlined line is its own frame, the caller above the callee.
	inlined := 0
	tree.Walk(func(n flame.NodeID, _ int) {
		if tree.Name(n) == "runtime.sysUnused" {
			assert.Equal(t, "runtime.(*pageAlloc).scavengeOne", tree.Name(tree.Parent(n)))
			inlined++
		}
	})
	assert.Positive(t, inlined)
}

func TestMergeProfile(t *testing.T) {
	c := newReplay(t)
	p, err := c.MergeProfile(context.Background(), source.StacksRequest{
		Selection: source.Selection{ProfileTypeID: cpuType, LabelSelector: `{job="demo-labeled"}`, Range: recorded},
	})
	require.NoError(t, err)
	require.Len(t, p.SampleType, 1)
	assert.Equal(t, "cpu", p.SampleType[0].Type)
	var total int64
	for _, s := range p.Sample {
		total += s.Value[0]
	}
	assert.Equal(t, int64(3770000000), total)
	assert.Equal(t, &profile.ValueType{Type: "cpu", Unit: "nanoseconds"}, p.PeriodType)
}

func TestNewRejectsBadURLs(t *testing.T) {
	for raw, want := range map[string]string{
		"":                       "URL is empty",
		"parca:7070":             "must start with http:// or https://",
		"http://":                "has no host",
		"http://parca:7070/?a=b": "must not have a query",
	} {
		_, err := parca.New(parca.Options{URL: raw})
		require.ErrorContains(t, err, want, raw)
	}
}

// topFunctions lists the n names with the largest values, ties by name.
func topFunctions(m map[string]int64, n int) []string {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Slice(names, func(i, j int) bool {
		if m[names[i]] != m[names[j]] {
			return m[names[i]] > m[names[j]]
		}
		return names[i] < names[j]
	})
	return names[:min(n, len(names))]
}
