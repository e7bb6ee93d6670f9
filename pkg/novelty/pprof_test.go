package novelty

import (
	"testing"
	"time"

	"github.com/google/pprof/profile"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/pkg/flame"
	"github.com/emberscope/emberscope/pkg/flame/flametest"
	"github.com/emberscope/emberscope/pkg/novelty/noveltytest"
)

// realTree records w under the CPU profiler and builds its tree.
func realTree(t *testing.T, w noveltytest.Workload) *flame.Tree {
	t.Helper()
	// A second of samples keeps the noise between two profiles of the same
	// workload (cosine distance mostly under 0.05) under the 0.1 floor.
	b := noveltytest.Record(t, w, time.Second, time.Time{})
	p, err := profile.ParseData(b)
	require.NoError(t, err)
	tr, err := flametest.FromProfile(p, 1) // samples, cpu: index 1 is cpu nanoseconds
	require.NoError(t, err)
	require.Positive(t, tr.Total(), "the %s profile has samples", w.Name)
	return tr
}

func TestRealProfilesSwitchingWorkloadIsNovel(t *testing.T) {
	sc, err := NewScorer(Options{})
	require.NoError(t, err)
	var prev Summary
	for i := range 6 {
		s := NewSummary(realTree(t, noveltytest.Serve))
		r, ok := sc.Score("app", s.Vector)
		require.True(t, ok)
		require.False(t, r.Novel, "serve profile %d is like the ones before it (distance %.3f, threshold %.3f)", i, r.Distance, r.Threshold)
		prev = s
	}
	s := NewSummary(realTree(t, noveltytest.Batch))
	r, ok := sc.Score("app", s.Vector)
	require.True(t, ok)
	require.True(t, r.Novel, "the batch profile is novel (distance %.3f, threshold %.3f)", r.Distance, r.Threshold)
	require.Greater(t, r.Distance, 0.5)

	// What grew are the batch workload's own functions.
	rises := s.Rises(prev, 3)
	require.NotEmpty(t, rises)
	names := map[string]bool{}
	for _, x := range rises {
		names[x.Name] = true
	}
	require.True(t, names[noveltytest.FuncName("batchCompress")] || names[noveltytest.FuncName("batchChecksum")],
		"the rises name the batch functions: %+v", rises)
}
