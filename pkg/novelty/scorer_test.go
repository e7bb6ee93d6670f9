package novelty

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// steady is the hand-built "normal" profile: three frames, jittered a bit by i.
func steady(i int) map[string]int64 {
	j := int64(i%3) - 1 // -1, 0, 1
	return map[string]int64{
		"main;serve;decode":     400 + 10*j,
		"main;serve;render":     400 - 10*j,
		"main;runtime;mallocgc": 200,
	}
}

func vec(stacks map[string]int64) Vector { return NewSummary(tree(stacks)).Vector }

func TestScorerTable(t *testing.T) {
	hot := steady(0)
	hot["main;serve;regexpCompile"] = 1500
	cases := []struct {
		name    string
		series  []map[string]int64
		novel   []int // indexes expected to be novel
		maxLast float64
		minLast float64
	}{
		{
			name:    "same shape scores about 0",
			series:  []map[string]int64{steady(0), steady(1), steady(2), steady(3), steady(4), steady(5), steady(6), steady(7)},
			maxLast: 0.01,
		},
		{
			name:    "a new hot function is novel",
			series:  []map[string]int64{steady(0), steady(1), steady(2), steady(3), steady(4), steady(5), hot},
			novel:   []int{6},
			minLast: 0.3,
		},
		{
			name:    "a new hot function during the warm-up is not flagged",
			series:  []map[string]int64{steady(0), steady(1), steady(2), hot},
			minLast: 0.3,
		},
		{
			name: "gradual drift is not novel",
			series: func() []map[string]int64 {
				var out []map[string]int64
				// The share of a new function grows by 4 points a window,
				// from 0 to 60% of the profile.
				for i := range 16 {
					s := steady(i)
					s["main;serve;gzip"] = int64(1000 * (0.04 * float64(i)) / (1 - 0.04*float64(i)))
					out = append(out, s)
				}
				return out
			}(),
			maxLast: 0.1,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			sc, err := NewScorer(Options{})
			require.NoError(t, err)
			var got []int
			var last Score
			for i, stacks := range tc.series {
				s, ok := sc.Score("svc", vec(stacks))
				require.True(t, ok)
				require.GreaterOrEqual(t, s.Distance, 0.0)
				require.LessOrEqual(t, s.Distance, 1.0)
				if s.Novel {
					got = append(got, i)
				}
				last = s
			}
			require.Equal(t, tc.novel, got, "novel windows")
			if tc.maxLast > 0 {
				require.Less(t, last.Distance, tc.maxLast)
			}
			if tc.minLast > 0 {
				require.Greater(t, last.Distance, tc.minLast)
			}
		})
	}
}

func TestScorerFirstVectorScoresZeroAndWarmsUp(t *testing.T) {
	sc, err := NewScorer(Options{WarmUp: 3})
	require.NoError(t, err)
	s, ok := sc.Score("a", vec(steady(0)))
	require.True(t, ok)
	require.Zero(t, s.Distance)
	require.True(t, math.IsInf(s.Threshold, 1), "no threshold during warm-up")
	sc.Score("a", vec(steady(1)))
	sc.Score("a", vec(steady(2)))
	s, _ = sc.Score("a", vec(steady(3)))
	require.False(t, math.IsInf(s.Threshold, 1), "after 3 vectors the threshold is set")
	require.GreaterOrEqual(t, s.Threshold, DefaultMinDistance)
}

func TestScorerSeriesAreIndependent(t *testing.T) {
	sc, err := NewScorer(Options{})
	require.NoError(t, err)
	other := map[string]int64{"main;batch;compress": 10}
	for i := range 6 {
		sc.Score("serve", vec(steady(i)))
		sc.Score("batch", vec(other))
	}
	s, _ := sc.Score("batch", vec(other))
	require.False(t, s.Novel, "batch looks like its own history")
	require.Less(t, s.Distance, 1e-6)
	s, _ = sc.Score("serve", vec(other))
	require.True(t, s.Novel, "batch's profile is novel for serve")
	require.Equal(t, 2, sc.Len())
	sc.Forget("batch")
	require.Equal(t, 1, sc.Len())
}

func TestScorerSkipsEmptyProfiles(t *testing.T) {
	sc, err := NewScorer(Options{})
	require.NoError(t, err)
	_, ok := sc.Score("a", Vector{})
	require.False(t, ok)
	require.Zero(t, sc.Len(), "an empty profile leaves no history")
}

func TestScorerIsDeterministic(t *testing.T) {
	run := func() []Score {
		sc, _ := NewScorer(Options{})
		var out []Score
		for i := range 30 {
			s := steady(i)
			s[fmt.Sprintf("main;f%d", i%4)] = int64(50 * (i % 5))
			r, _ := sc.Score("x", vec(s))
			out = append(out, r)
		}
		return out
	}
	require.Equal(t, run(), run())
}

func TestOptionsErrors(t *testing.T) {
	for _, o := range []Options{{K: -1}, {WarmUp: -2}, {Alpha: 1.5}, {Alpha: -0.1}, {MinDistance: 2}, {K: math.NaN()}} {
		_, err := NewScorer(o)
		require.Error(t, err, "%+v", o)
		require.Contains(t, err.Error(), "novelty:")
	}
	sc, err := NewScorer(Options{})
	require.NoError(t, err)
	require.Equal(t, Options{K: 3, WarmUp: 5, Alpha: 0.2, MinDistance: 0.1}, sc.Options())
}
