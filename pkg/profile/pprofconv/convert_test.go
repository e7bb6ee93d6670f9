// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package pprofconv_test

import (
	"os"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/internal/fixtures"
	"github.com/emberscope/emberscope/internal/pproforacle"
	"github.com/emberscope/emberscope/pkg/profile/flame"
	"github.com/emberscope/emberscope/pkg/profile/model"
	"github.com/emberscope/emberscope/pkg/profile/pprofconv"
)

// cpuFile is the recorded CPU profile with category labels: parse, hash,
// sort, and samples without the label.
const cpuFile = "categories.cpu.pb.gz"

func cpuProfile(t testing.TB) *profile.Profile {
	t.Helper()
	return parseFile(t, fixtures.ProfilePath(t, cpuFile))
}

func parseFile(t testing.TB, path string) *profile.Profile {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	p, err := profile.Parse(f)
	require.NoError(t, err)
	return p
}

// selfByName sums the self value of every node per name.
func selfByName(tr *flame.Tree) map[string]int64 {
	out := make(map[string]int64)
	tr.Walk(func(n flame.NodeID, _ int) {
		if s := tr.Self(n); s != 0 {
			out[tr.Name(n)] += s
		}
	})
	return out
}

// cumByName sums, per name, the totals of the nodes with no ancestor of the
// same name: the value of the stacks holding the name, recursion counted once.
func cumByName(tr *flame.Tree) map[string]int64 {
	out := make(map[string]int64)
	var walk func(n flame.NodeID, above map[string]int)
	walk = func(n flame.NodeID, above map[string]int) {
		name := tr.Name(n)
		if n != flame.Root {
			if above[name] == 0 {
				out[name] += tr.NodeTotal(n)
			}
			above[name]++
		}
		for _, c := range tr.Children(n) {
			walk(c, above)
		}
		if n != flame.Root {
			above[name]--
		}
	}
	walk(flame.Root, map[string]int{})
	return out
}

// TestToTreeMatchesGooglePprof checks, for every sample type of recorded
// profiles (generic Go functions included), each function's self and total in
// our tree against flat and cum as google/pprof computes them (the oracle is
// `go tool pprof -top`, see internal/pproforacle).
func TestToTreeMatchesGooglePprof(t *testing.T) {
	paths := []string{
		fixtures.ProfilePath(t, cpuFile),
		fixtures.ProfilePath(t, "heap-2.pb.gz"),
		fixtures.Path(t, "parca/pushed-profiles/labeled.cpu.redated.pb.gz"),
		fixtures.Path(t, "pyroscope/pushed-profiles/bench-regexp.mem.redated.pb.gz"),
	}
	for _, path := range paths {
		p := parseFile(t, path)
		for idx, st := range p.SampleType {
			want := pproforacle.Top(t, path, pproforacle.Options{SampleType: st.Type})
			tr := pprofconv.ToTree(p, idx)
			require.Equal(t, want.Total, tr.Total(), "%s %s", path, st.Type)
			require.Equal(t, want.Flat(), selfByName(tr), "%s %s: self = pprof flat", path, st.Type)
			require.Equal(t, want.Cum(), cumByName(tr), "%s %s: total = pprof cum", path, st.Type)
		}
	}
	p := cpuProfile(t)
	require.ErrorContains(t, pprofconv.AddToTree(flame.New(), p, 5), "out of range")
	require.Zero(t, pprofconv.ToTree(p, 5).Total())
}

func TestConvertCPU(t *testing.T) {
	p := cpuProfile(t)
	res, err := pprofconv.Convert(p, pprofconv.Options{Naming: pprofconv.Naming{Fallback: "app"}})
	require.NoError(t, err)
	byType := map[string]int64{}
	byCategory := map[string]int64{}
	for _, s := range res.Series {
		byType[s.Type.String()] += s.Total
		var sum int64
		for _, smp := range s.Samples {
			require.NotZero(t, smp.Value)
			sum += smp.Value
		}
		require.Equal(t, s.Total, sum)
		if s.Type.SampleType == "cpu" {
			cat := ""
			for _, l := range s.Labels {
				if l.Name == "category" {
					cat = l.Value
				}
			}
			byCategory[cat] += s.Total
		}
	}
	// The oracle is google/pprof (go tool pprof -top, internal/pproforacle).
	path := fixtures.ProfilePath(t, cpuFile)
	cpuTotal := pproforacle.Top(t, path, pproforacle.Options{SampleType: "cpu"}).Total
	countTotal := pproforacle.Top(t, path, pproforacle.Options{SampleType: "samples"}).Total
	require.Equal(t, map[string]int64{
		"process_cpu:samples:count:cpu:nanoseconds":   countTotal,
		"process_cpu:cpu:nanoseconds:cpu:nanoseconds": cpuTotal,
	}, byType)
	for _, cat := range []string{"parse", "hash", "sort", ""} {
		want := pproforacle.Top(t, path, pproforacle.Options{SampleType: "cpu", Labels: map[string]string{"category": cat}}).Total
		require.Equal(t, want, byCategory[cat], "category %q", cat)
		require.NotZero(t, want, "the test profile has no samples for category %q", cat)
	}
	// Stacks are root first and end in the burning function.
	for _, s := range res.Series {
		for _, smp := range s.Samples {
			st := res.Stacks[smp.Stack]
			require.NotEmpty(t, st)
		}
	}
}

func TestConvertDropsZeroAndNamesTypes(t *testing.T) {
	fn := &profile.Function{ID: 1, Name: "slices.Sort[go.shape.int]"}
	fn2 := &profile.Function{ID: 2, Name: "main.main"}
	loc := &profile.Location{ID: 1, Line: []profile.Line{{Function: fn}, {Function: fn2}}}
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "alloc_objects", Unit: "count"}, {Type: "alloc_space", Unit: "bytes"}, {Type: "inuse_objects", Unit: "count"}, {Type: "inuse_space", Unit: "bytes"}},
		PeriodType: &profile.ValueType{Type: "space", Unit: "bytes"},
		Sample: []*profile.Sample{
			{Location: []*profile.Location{loc}, Value: []int64{1, 10, 0, 0}, Label: map[string][]string{"otel.scope": {"x"}}},
			{Location: []*profile.Location{loc}, Value: []int64{0, 0, 0, 0}},
		},
		Location: []*profile.Location{loc},
		Function: []*profile.Function{fn, fn2},
	}
	res, err := pprofconv.Convert(p, pprofconv.Options{})
	require.NoError(t, err)
	require.Len(t, res.Series, 2)
	require.Equal(t, "memory:alloc_objects:count:space:bytes", res.Series[0].Type.String())
	require.Equal(t, "memory:alloc_space:bytes:space:bytes", res.Series[1].Type.String())
	require.Equal(t, int64(10), res.Series[1].Total, "cumulative alloc_space is kept as sent")
	require.Equal(t, model.Labels{{Name: "otel_scope", Value: "x"}}, res.Series[0].Labels)
	require.Equal(t, []string{"main.main", "slices.Sort"}, []string{res.Names[res.Frames[res.Stacks[0][0]].Name], res.Names[res.Frames[res.Stacks[0][1]].Name]})

	p.Sample[0].Label = map[string][]string{"bad-name": {"x"}}
	_, err = pprofconv.Convert(p, pprofconv.Options{})
	require.ErrorContains(t, err, `invalid label name "bad-name"`)
}

func TestInlinedFramesMatchSeparateLocations(t *testing.T) {
	fa := &profile.Function{ID: 1, Name: "a"}
	fb := &profile.Function{ID: 2, Name: "b"}
	inlined := &profile.Location{ID: 1, Line: []profile.Line{{Function: fb}, {Function: fa}}} // b inlined into a
	la := &profile.Location{ID: 2, Line: []profile.Line{{Function: fa}}}
	lb := &profile.Location{ID: 3, Line: []profile.Line{{Function: fb}}}
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "cpu", Unit: "nanoseconds"}},
		Sample: []*profile.Sample{
			{Location: []*profile.Location{inlined}, Value: []int64{2}},
			{Location: []*profile.Location{lb, la}, Value: []int64{3}},
		},
		Location: []*profile.Location{inlined, la, lb},
		Function: []*profile.Function{fa, fb},
	}
	tr := pprofconv.ToTree(p, 0)
	require.Equal(t, 3, tr.Len(), "total, a, b: both samples share one path")
	require.Equal(t, map[string]int64{"b": 5}, selfByName(tr))
}
