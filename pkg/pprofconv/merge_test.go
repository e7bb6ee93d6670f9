package pprofconv_test

import (
	"testing"

	"github.com/google/pprof/profile"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/pkg/flame"
	"github.com/emberscope/emberscope/pkg/frames"
	"github.com/emberscope/emberscope/pkg/pprofconv"
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
	ps := mergeInputs(t, mergeN)
	want := pprofTree(t, ps, cpuSample)
	require.Greater(t, want.Len(), 100, "the inputs make a real tree")

	// One Merger, one Add per profile.
	tr := flame.New()
	m := pprofconv.NewMerger(tr)
	for _, p := range ps {
		require.NoError(t, m.Add(p, cpuSample))
	}
	m.Flush()
	require.Equal(t, rows(want), rows(tr))

	// Sharded over goroutines, and every worker count gives the same tree
	// and the same flamegraph frame.
	for _, workers := range []int{0, 1, 2, 3, 7, 64} {
		got, err := pprofconv.MergeProfiles(ps, cpuSample, workers)
		require.NoError(t, err)
		require.Equal(t, rows(want), rows(got), "workers %d", workers)
		require.Equal(t, frames.Flamegraph(want, "nanoseconds"), frames.Flamegraph(got, "nanoseconds"), "workers %d", workers)
	}
}

func TestMergeProfilesEmptyAndBadIndex(t *testing.T) {
	got, err := pprofconv.MergeProfiles(nil, 0, 2)
	require.NoError(t, err)
	require.Equal(t, 1, got.Len())
	require.Zero(t, got.Total())

	p := cpuProfile(t)
	_, err = pprofconv.MergeProfiles([]*profile.Profile{p, p.Copy()}, 7, 2)
	require.ErrorContains(t, err, "profile 0: sample index 7 out of range")
}
