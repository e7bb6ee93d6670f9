// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package novelty

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/pkg/profile/flame/flametest"
)

// steady is the usual profile, jittered a little by i.
func steady(t *testing.T, i int) Vector {
	j := i%3 - 1
	return mustVector(t, flametest.Stacks(
		fmt.Sprintf("main;serve;decode %d", 400+10*j),
		fmt.Sprintf("main;serve;render %d", 400-10*j),
		"main;runtime;mallocgc 200"), Params{})
}

func hot(t *testing.T) Vector {
	return mustVector(t, flametest.Stacks("main;serve;decode 400", "main;serve;render 400", "main;runtime;mallocgc 200", "main;serve;regexpCompile 400"), Params{})
}

func TestSeriesScoresAgainstTheMostSimilarOfHistory(t *testing.T) {
	for _, o := range []Options{{Method: MethodSigma}, {Method: MethodCosine}, {Cluster: true}} {
		t.Run(fmt.Sprintf("method=%s,cluster=%v", o.Method, o.Cluster), func(t *testing.T) {
			s, err := NewSeries(o)
			require.NoError(t, err)
			sigma := s.Options().Method == MethodSigma
			r, ok := s.Score(steady(t, 0))
			require.True(t, ok)
			require.Zero(t, r.Score, "the first profile has nothing to differ from")
			require.Equal(t, -1, r.Match)
			for i := 1; i < 8; i++ {
				r, _ = s.Score(steady(t, i))
				if sigma {
					require.Less(t, r.Score, 2.0, "the usual ±1 point wobble is within its own spread")
				} else {
					require.Less(t, r.Score, 0.01)
				}
				require.False(t, r.Novel)
			}
			r, _ = s.Score(hot(t))
			require.True(t, r.Novel, "score %.3f", r.Score)
			require.Greater(t, r.Score, s.Options().Threshold)
			require.Equal(t, "regexpCompile", r.Changes[0].Name, "what moved most is the new function")
			require.InDelta(t, 0, r.Changes[0].From, 1e-6)
			require.InDelta(t, 400.0/1400, r.Changes[0].To, 1e-6)
			require.Len(t, r.Changes, 3)
			if sigma {
				require.Greater(t, r.Changes[0].Sigma, 20.0, "28.6 points against a floor of half a point")
				for _, c := range r.Changes[1:] {
					require.Negative(t, c.Sigma, "%s gave up share to the new function", c.Name)
				}
			} else {
				require.Zero(t, r.Changes[0].Sigma)
			}
			switch {
			case o.Cluster:
				require.Equal(t, 2, s.Clusters(), "the usual profiles merged into one cluster, the hot one starts another")
			default:
				require.Equal(t, 1, r.Match%3, "the closest usual profile is the one hot extends (jitter 0)")
			}
			if !sigma {
				// Once seen, the hot profile is history: the next one is not novel.
				r, _ = s.Score(hot(t))
				require.False(t, r.Novel)
				require.Equal(t, 8, r.Match)
			}
		})
	}
}

func TestSigmaWeighsEachFeatureByItsOwnSpread(t *testing.T) {
	// noisy wobbles by ±8 points every profile; calm never moves by more
	// than a tenth of a point. The same 6-point move is noise in the first
	// and a change in the second.
	usual := func(i int) Vector {
		j := float64(i%5 - 2)
		return mustVector(t, flametest.Stacks(
			fmt.Sprintf("main;noisy %d", int(300+40*j)),
			fmt.Sprintf("main;other %d", int(500-40*j)),
			fmt.Sprintf("main;calm %d", 200+i%2)), Params{})
	}
	moved := func(noisy, calm int) Vector {
		return mustVector(t, flametest.Stacks(fmt.Sprintf("main;noisy %d", noisy), fmt.Sprintf("main;other %d", 1000-noisy-calm), fmt.Sprintf("main;calm %d", calm)), Params{})
	}
	s, err := NewSeries(Options{Method: MethodSigma})
	require.NoError(t, err)
	for i := range 20 {
		r, _ := s.Score(usual(i))
		require.False(t, r.Novel, "usual profile %d scores %.2f", i, r.Score)
	}
	base := *s
	r, _ := s.Score(moved(360, 200))
	require.False(t, r.Novel, "noisy up 6 points is within its wobble: %.2f σ", r.Score)
	s2 := base
	s2.ring = slices.Clone(base.ring)
	r, _ = s2.Score(moved(300, 260))
	require.True(t, r.Novel, "calm up 6 points is new: %.2f σ", r.Score)
	require.Equal(t, "calm", r.Changes[0].Name)
	require.InDelta(t, 0.2005, r.Changes[0].From, 1e-3)
	require.InDelta(t, 0.26, r.Changes[0].To, 1e-3)
	require.Greater(t, r.Changes[0].Sigma, 6.0)
}

func TestSurpriseWeighsSamplingNoiseAndNaturalSpread(t *testing.T) {
	// Profiles of 1,000 samples: noisy wobbles by ±8 points, calm only by
	// its sampling noise. The same 6-point move is usual in the first and
	// a change in the second (about 4.7 of calm's sampling σ at 20 %).
	withSamples := func(v Vector) Vector { v.Samples = 1000; return v }
	usual := func(i int) Vector {
		j := float64(i%5 - 2)
		return withSamples(mustVector(t, flametest.Stacks(
			fmt.Sprintf("main;noisy %d", int(300+40*j)),
			fmt.Sprintf("main;other %d", int(500-40*j-float64(i%3*10))),
			fmt.Sprintf("main;calm %d", 200+i%3*10)), Params{}))
	}
	moved := func(noisy, calm int) Vector {
		return withSamples(mustVector(t, flametest.Stacks(fmt.Sprintf("main;noisy %d", noisy), fmt.Sprintf("main;other %d", 1000-noisy-calm), fmt.Sprintf("main;calm %d", calm)), Params{}))
	}
	s, err := NewSeries(Options{})
	require.NoError(t, err)
	for i := range 20 {
		r, _ := s.Score(usual(i))
		require.False(t, r.Novel, "usual profile %d scores %.2f", i, r.Score)
	}
	base := *s
	base.ring = slices.Clone(s.ring)
	r, _ := s.Score(moved(360, 210))
	require.False(t, r.Novel, "noisy up 6 points is within its wobble: surprise %.2f", r.Score)
	s2 := base
	r, _ = s2.Score(moved(300, 270))
	require.True(t, r.Novel, "calm up 6 points is new: surprise %.2f", r.Score)
	require.Equal(t, "calm", r.Changes[0].Name)
	require.InDelta(t, 0.21, r.Changes[0].From, 1e-3)
	require.InDelta(t, 0.27, r.Changes[0].To, 1e-3)
}

func TestSeriesWarmsUpAndForgetsBeyondH(t *testing.T) {
	s, err := NewSeries(Options{Method: MethodSigma, History: 3, WarmUp: 2})
	require.NoError(t, err)
	r, _ := s.Score(steady(t, 0))
	require.False(t, r.Novel)
	r, _ = s.Score(hot(t))
	require.False(t, r.Novel, "still warming up")
	require.Greater(t, r.Score, 0.1)
	for i := range 3 {
		s.Score(steady(t, i))
	}
	r, _ = s.Score(hot(t))
	require.True(t, r.Novel, "the earlier hot profile is older than the last 3")
	_, ok := s.Score(Vector{})
	require.False(t, ok, "an empty profile is neither scored nor remembered")
}

func TestOptionsErrors(t *testing.T) {
	for _, o := range []Options{{History: -1}, {Method: MethodCosine, Threshold: 2}, {Threshold: 2000}, {Threshold: -0.5}, {WarmUp: -1}, {Changes: -2}, {MaxClusters: -1}, {Method: "euclid"}, {Method: MethodSigma, Cluster: true}} {
		_, err := NewSeries(o)
		require.Error(t, err, "%+v", o)
		require.Contains(t, err.Error(), "novelty:")
	}
	s, err := NewSeries(Options{})
	require.NoError(t, err)
	require.Equal(t, Options{Method: MethodSurprise, History: 20, Threshold: SurpriseThreshold(1, 15*time.Second), FalseAlarmsPerDay: 1, Interval: 15 * time.Second, WarmUp: 5, Changes: 3, MaxClusters: 64}, s.Options())
	s, err = NewSeries(Options{Method: MethodSigma})
	require.NoError(t, err)
	require.Equal(t, Options{Method: MethodSigma, History: 20, Threshold: 7, WarmUp: 5, Changes: 3, MaxClusters: 64}, s.Options())
	s, err = NewSeries(Options{Cluster: true})
	require.NoError(t, err)
	require.Equal(t, Options{Method: MethodCosine, Cluster: true, History: 20, Threshold: 0.1, WarmUp: 5, Changes: 3, MaxClusters: 64}, s.Options())
}

func TestScoreSeriesNamesTheMatchedPoint(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	var pts []Point
	for i := range 6 {
		pts = append(pts, Point{Time: t0.Add(time.Duration(i) * time.Minute), End: t0.Add(time.Duration(i) * time.Minute), Vector: steady(t, i)})
	}
	pts = append(pts, Point{Time: t0.Add(10 * time.Minute), End: t0.Add(10 * time.Minute), Vector: hot(t)})
	pts = append(pts, Point{Time: t0.Add(11 * time.Minute)}) // empty: skipped
	// The surprise score reads the push interval from the points: their
	// median gap.
	o, err := SeriesOptions(Options{}, pts)
	require.NoError(t, err)
	require.Equal(t, time.Minute, o.Interval)
	require.InDelta(t, SurpriseThreshold(1, time.Minute), o.Threshold, 1e-9)
	// These synthetic profiles' round values (400, 200) claim 7 samples
	// (Vector.Samples): σ scores them.
	got, err := ScoreSeries(Options{Method: MethodSigma}, pts)
	require.NoError(t, err)
	require.Len(t, got, 7)
	last := got[6]
	require.True(t, last.Novel)
	require.True(t, last.MatchTime.Before(last.Time))
	require.False(t, last.MatchTime.IsZero())
	require.True(t, got[0].MatchTime.IsZero())
}

func TestProfilePointsMergeOnePush(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	a := mustVector(t, flametest.Stacks("m;x 30"), Params{})
	b := mustVector(t, flametest.Stacks("m;y 10"), Params{})
	pts, err := ProfilePoints([]Profile{{Time: t0.Add(time.Second), Total: 10, Vector: a}, {Time: t0, Total: 30, Vector: a}, {Time: t0, Total: 10, Vector: b}})
	require.NoError(t, err)
	require.Len(t, pts, 2)
	require.Equal(t, t0, pts[0].Time)
	require.InDelta(t, 0.75, pts[0].Vector.Share("x"), 1e-6)
	require.InDelta(t, 0.25, pts[0].Vector.Share("y"), 1e-6)
}

func TestWindowsAreBounded(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	ws, step, widened, err := Windows(t0, t0.Add(10*time.Minute), time.Minute, 100)
	require.NoError(t, err)
	require.False(t, widened)
	require.Equal(t, time.Minute, step)
	require.Len(t, ws, 10)
	require.Equal(t, t0.Add(time.Minute-time.Millisecond), ws[0].To)
	require.Equal(t, t0.Add(10*time.Minute), ws[9].To)

	ws, step, widened, err = Windows(t0, t0.Add(time.Hour), time.Second, 50)
	require.NoError(t, err)
	require.True(t, widened)
	require.Equal(t, 72*time.Second, step)
	require.Len(t, ws, 50)

	_, _, _, err = Windows(t0, t0.Add(time.Hour), 0, 50)
	require.ErrorContains(t, err, "step")
}

func TestWindowPointsKeepsWindowOrder(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	ws, _, _, err := Windows(t0, t0.Add(5*time.Minute), time.Minute, 10)
	require.NoError(t, err)
	pts, err := WindowPoints(context.Background(), ws, 2, func(_ context.Context, w Window) (Vector, error) {
		return steady(t, w.From.Minute()), nil
	})
	require.NoError(t, err)
	require.Len(t, pts, 5)
	for i, p := range pts {
		require.Equal(t, ws[i].From, p.Time)
		require.Equal(t, steady(t, ws[i].From.Minute()), p.Vector)
	}
	_, err = WindowPoints(context.Background(), ws, 2, func(context.Context, Window) (Vector, error) { return Vector{}, fmt.Errorf("boom") })
	require.ErrorContains(t, err, "window 2026-12-01T10:0")
	require.ErrorContains(t, err, "boom")
}
