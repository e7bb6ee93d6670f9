// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package pprofconv_test

import (
	"bytes"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/pkg/datasource/dataframes"
	"github.com/emberscope/emberscope/pkg/profile/flame"
	"github.com/emberscope/emberscope/pkg/profile/pprofconv"
)

// walkRow is one node of a tree as a flamegraph shows it.
type walkRow struct {
	Depth       int
	Name        string
	Self, Total int64
}

// rows lists every node of tr in walk order (children sorted by name).
func rows(tr *flame.Tree) []walkRow {
	var out []walkRow
	tr.Walk(func(n flame.NodeID, depth int) {
		out = append(out, walkRow{depth, tr.Name(n), tr.Self(n), tr.NodeTotal(n)})
	})
	return out
}

// pprofTree merges ps with google/pprof and converts the result the same way.
func pprofTree(t *testing.T, ps []*profile.Profile, idx int) *flame.Tree {
	t.Helper()
	merged, err := profile.Merge(ps)
	require.NoError(t, err)
	return pprofconv.ToTree(merged, idx)
}

func TestMergeEqualsPprofMerge(t *testing.T) {
	raws := demoProfiles(t, mergeN)
	want := pprofTree(t, parseAll(t, raws), cpuSample)
	require.Greater(t, want.Len(), 100, "the inputs make a real tree")

	// One Merger, one Add per profile.
	tr := flame.New()
	m := pprofconv.NewMerger(tr)
	for _, p := range raws {
		require.NoError(t, m.Add(p, cpuSample))
	}
	m.Flush()
	require.Equal(t, rows(want), rows(tr))

	// Sharded over goroutines, and every worker count gives the same tree
	// and the same flamegraph frame.
	for _, workers := range []int{0, 1, 2, 3, 7, 64} {
		got, err := pprofconv.MergeProfiles(raws, cpuSample, workers)
		require.NoError(t, err)
		require.Equal(t, rows(want), rows(got), "workers %d", workers)
		require.Equal(t, dataframes.Flamegraph(want, "nanoseconds"), dataframes.Flamegraph(got, "nanoseconds"), "workers %d", workers)
	}
}

func TestMergeProfilesEmptyAndBadInput(t *testing.T) {
	got, err := pprofconv.MergeProfiles(nil, 0, 2)
	require.NoError(t, err)
	require.Equal(t, 1, got.Len())
	require.Zero(t, got.Total())

	raws := demoProfiles(t, 8)
	_, err = pprofconv.MergeProfiles(raws, 7, 2)
	require.ErrorContains(t, err, "profile 0: sample index 7 out of range")

	bad := append([][]byte{}, raws...)
	bad[5] = bad[5][:len(bad[5])/2]
	_, err = pprofconv.MergeProfiles(bad, cpuSample, 2)
	require.ErrorContains(t, err, "profile 5: gzip")
}

func TestMergeRefusesUnlistedLocation(t *testing.T) {
	// A sample naming a location its profile does not list: google/pprof's
	// parser refuses the bytes, and so does the merge.
	fa := &profile.Function{ID: 1, Name: "main.a"}
	fb := &profile.Function{ID: 2, Name: "main.b"}
	la := &profile.Location{ID: 1, Line: []profile.Line{{Function: fa}}}
	lb := &profile.Location{ID: 2, Line: []profile.Line{{Function: fb}}}
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "cpu", Unit: "nanoseconds"}},
		Sample: []*profile.Sample{
			{Location: []*profile.Location{lb, la}, Value: []int64{3}},
			{Location: []*profile.Location{la}, Value: []int64{2}},
		},
		Location: []*profile.Location{la},
		Function: []*profile.Function{fa, fb},
	}
	var buf bytes.Buffer
	require.NoError(t, p.Write(&buf))
	_, err := profile.ParseData(buf.Bytes())
	require.Error(t, err, "google/pprof refuses it")
	_, err = pprofconv.MergeProfiles([][]byte{buf.Bytes()}, 0, 1)
	require.ErrorContains(t, err, "profile 0: sample 0 names location 2, which the profile does not hold")

	p.Location = []*profile.Location{la, lb}
	buf.Reset()
	require.NoError(t, p.Write(&buf))
	got, err := pprofconv.MergeProfiles([][]byte{buf.Bytes(), buf.Bytes()}, 0, 1)
	require.NoError(t, err)
	require.Equal(t, []walkRow{{0, "total", 0, 10}, {1, "main.a", 4, 10}, {2, "main.b", 6, 6}}, rows(got))
}
