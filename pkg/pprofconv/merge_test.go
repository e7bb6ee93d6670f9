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

func TestMergeProfilesUnlistedLocation(t *testing.T) {
	// A sample may use a location its profile does not list (profiles built
	// in code); both the serial and the sharded merge still count it.
	fa := &profile.Function{ID: 1, Name: "main.a"}
	fb := &profile.Function{ID: 2, Name: "main.b"}
	la := &profile.Location{ID: 1, Line: []profile.Line{{Function: fa}}}
	lb := &profile.Location{ID: 2, Line: []profile.Line{{Function: fb}}}
	mk := func(listed ...*profile.Location) *profile.Profile {
		return &profile.Profile{
			SampleType: []*profile.ValueType{{Type: "cpu", Unit: "nanoseconds"}},
			Sample: []*profile.Sample{
				{Location: []*profile.Location{lb, la}, Value: []int64{3}},
				{Location: []*profile.Location{la}, Value: []int64{2}},
			},
			Location: listed,
			Function: []*profile.Function{fa, fb},
		}
	}
	var ps []*profile.Profile
	for range 2 {
		ps = append(ps, mk(la, lb), mk(la), mk(), mk(la, lb))
	}
	want := []walkRow{{0, "total", 0, 40}, {1, "main.a", 16, 40}, {2, "main.b", 24, 24}}
	for _, workers := range []int{1, 2} {
		got, err := pprofconv.MergeProfiles(ps, 0, workers)
		require.NoError(t, err)
		require.Equal(t, want, rows(got), "workers %d", workers)
	}
}
