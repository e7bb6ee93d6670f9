// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package pprofconv_test

import (
	"strings"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/internal/fixtures"
	"github.com/emberscope/emberscope/internal/pproforacle"
	"github.com/emberscope/emberscope/pkg/profile/flame"
	"github.com/emberscope/emberscope/pkg/profile/model"
	"github.com/emberscope/emberscope/pkg/profile/pprofconv"
)

// topByName is the top table of tr as two maps, the root's row left out
// (pprof's report has no root row).
func topByName(tr *flame.Tree) (self, total map[string]int64) {
	self, total = map[string]int64{}, map[string]int64{}
	for _, row := range flame.TopTable(tr) {
		if row.Name == flame.RootName {
			continue
		}
		if row.Self != 0 {
			self[row.Name] = row.Self
		}
		total[row.Name] = row.Total
	}
	return self, total
}

// TestGranularTreeMatchesPprofLinesAndFiles checks, on real recorded
// profiles (inlined frames, generic functions, recursion, heap), that the top
// table of the tree at lines and at files has pprof's flat and cum per row:
// the oracle is `go tool pprof -top -lines` / `-files` (internal/pproforacle).
func TestGranularTreeMatchesPprofLinesAndFiles(t *testing.T) {
	paths := []string{
		fixtures.ProfilePath(t, "browser.cpu.pb.gz"),
		fixtures.ProfilePath(t, cpuFile),
		fixtures.ProfilePath(t, "heap-2.pb.gz"),
		fixtures.Path(t, "pyroscope/pushed-profiles/labeled.cpu.redated.pb.gz"),
		fixtures.Path(t, "pyroscope/pushed-profiles/deep.cpu.redated.pb.gz"),
	}
	for _, path := range paths {
		p := parseFile(t, path)
		idx := len(p.SampleType) - 1
		st := p.SampleType[idx].Type
		for _, g := range []model.Granularity{model.GranularityLines, model.GranularityFiles} {
			want := pproforacle.Top(t, path, pproforacle.Options{SampleType: st, Granularity: string(g)})
			tr, err := pprofconv.GranularTree(p, idx, g)
			require.NoError(t, err)
			require.Equal(t, want.Total, tr.Total(), "%s %s", path, g)
			self, total := topByName(tr)
			require.Equal(t, want.Flat(), self, "%s %s: self = pprof flat", path, g)
			require.Equal(t, want.Cum(), total, "%s %s: total = pprof cum", path, g)
			if g == model.GranularityLines {
				require.Greater(t, len(total), len(pproforacle.Top(t, path, pproforacle.Options{SampleType: st}).Funcs), "%s: more lines than functions", path)
			}
		}
	}
}

// TestGranularTreeNames checks the frame names: a line is
// "pkg.Func file.go:123" with the file's directory dropped, a file its full
// path; an inlined call is a frame of its own.
func TestGranularTreeNames(t *testing.T) {
	p := parseFile(t, fixtures.ProfilePath(t, "browser.cpu.pb.gz"))
	tr, err := pprofconv.GranularTree(p, 1, model.GranularityLines)
	require.NoError(t, err)
	_, total := topByName(tr)
	// From `go tool pprof -top -lines`: main.compress .../workloads.go:243, cum 150000000ns.
	require.Equal(t, int64(150_000_000), total["main.compress workloads.go:243"])
	for name := range total {
		require.Regexp(t, `^\S.* [^ /]+\.(go|s):\d+$`, name, "lines keep only the file's base name")
	}
	files, err := pprofconv.GranularTree(p, 1, model.GranularityFiles)
	require.NoError(t, err)
	_, ftotal := topByName(files)
	for name := range ftotal {
		require.True(t, strings.HasPrefix(name, "/"), "files are full paths: %q", name)
	}

	// One location with an inlined call: two frames, the inlined one the leaf.
	fn1 := &profile.Function{ID: 1, Name: "main.outer", Filename: "/src/app/main.go"}
	fn2 := &profile.Function{ID: 2, Name: "slices.Sort[go.shape.int]", Filename: "/go/src/slices/sort.go"}
	fn3 := &profile.Function{ID: 3, Name: "main.noFile"}
	loc := &profile.Location{ID: 1, Line: []profile.Line{{Function: fn2, Line: 17}, {Function: fn1, Line: 40}}}
	bare := &profile.Location{ID: 2, Address: 0x4a3f20}
	nofile := &profile.Location{ID: 3, Line: []profile.Line{{Function: fn3}}}
	small := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "cpu", Unit: "nanoseconds"}},
		Function:   []*profile.Function{fn1, fn2, fn3},
		Location:   []*profile.Location{loc, bare, nofile},
		Sample: []*profile.Sample{
			{Location: []*profile.Location{loc}, Value: []int64{5}},
			{Location: []*profile.Location{bare, nofile, loc}, Value: []int64{3}},
			{Location: []*profile.Location{loc}, Value: []int64{0}},
		},
	}
	lt, err := pprofconv.GranularTree(small, 0, model.GranularityLines)
	require.NoError(t, err)
	require.Equal(t, map[string]int{
		"total": 0, "main.outer main.go:40": 1, "slices.Sort sort.go:17": 2, "main.noFile": 3, "0x4a3f20": 4,
	}, depthByName(lt))
	ft, err := pprofconv.GranularTree(small, 0, model.GranularityFiles)
	require.NoError(t, err)
	require.Equal(t, map[string]int{
		"total": 0, "/src/app/main.go": 1, "/go/src/slices/sort.go": 2, "main.noFile": 3, "0x4a3f20": 4,
	}, depthByName(ft))
	require.Equal(t, int64(8), ft.Total())

	_, err = pprofconv.GranularTree(small, 1, model.GranularityLines)
	require.ErrorContains(t, err, "sample index 1 out of range")
	_, err = pprofconv.GranularTree(small, 0, "words")
	require.ErrorContains(t, err, `unknown granularity "words"`)
}

func depthByName(tr *flame.Tree) map[string]int {
	out := map[string]int{}
	tr.Walk(func(n flame.NodeID, depth int) { out[tr.Name(n)] = depth })
	return out
}

func TestSampleIndexOf(t *testing.T) {
	p := parseFile(t, fixtures.ProfilePath(t, "heap-2.pb.gz"))
	i, err := pprofconv.SampleIndexOf(p, "memory:inuse_space:bytes:space:bytes")
	require.NoError(t, err)
	require.Equal(t, "inuse_space", p.SampleType[i].Type)
	_, err = pprofconv.SampleIndexOf(p, "process_cpu:cpu:nanoseconds:cpu:nanoseconds")
	require.ErrorContains(t, err, "no sample type cpu:nanoseconds")
}
