// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package novelty

import (
	"context"
	"fmt"
	"slices"
	"time"

	"golang.org/x/sync/errgroup"
)

// Point is one scored unit of a series: a profile (End equal to Time) or a
// step window [Time, End].
type Point struct {
	Time, End time.Time
	Vector    Vector
}

// Scored is a point with its verdict and the point it matched best.
type Scored struct {
	Time, End time.Time
	Result
	// MatchTime and MatchEnd are the matched point's (zero for the first).
	MatchTime, MatchEnd time.Time
}

// ScoreSeries scores the points of one series in time order (points are
// sorted first). Points with zero vectors are skipped.
//
// The options in effect are SeriesOptions'.
func ScoreSeries(opts Options, pts []Point) ([]Scored, error) {
	pts = slices.Clone(pts)
	slices.SortStableFunc(pts, func(a, b Point) int { return a.Time.Compare(b.Time) })
	opts, err := SeriesOptions(opts, pts)
	if err != nil {
		return nil, err
	}
	s, err := NewSeries(opts)
	if err != nil {
		return nil, err
	}
	out := make([]Scored, 0, len(pts))
	var kept []Point // by sequence number
	for _, p := range pts {
		r, ok := s.Score(p.Vector)
		if !ok {
			continue
		}
		sc := Scored{Time: p.Time, End: p.End, Result: r}
		if r.Match >= 0 {
			sc.MatchTime, sc.MatchEnd = kept[r.Match].Time, kept[r.Match].End
		}
		kept = append(kept, Point{Time: p.Time, End: p.End})
		out = append(out, sc)
	}
	return out, nil
}

// Profile is one stored profile of a series with its vector.
type Profile struct {
	Time   time.Time
	Total  int64
	Vector Vector
}

// ProfilePoints turns profiles into points, one per distinct time: the
// profiles of one push that a store split by sample labels share a time and
// are merged (weighted by their totals) into the push's vector.
func ProfilePoints(ps []Profile) ([]Point, error) {
	ps = slices.Clone(ps)
	slices.SortStableFunc(ps, func(a, b Profile) int { return a.Time.Compare(b.Time) })
	var out []Point
	for i := 0; i < len(ps); {
		j := i + 1
		for j < len(ps) && ps[j].Time.Equal(ps[i].Time) {
			j++
		}
		v := ps[i].Vector
		if j-i > 1 {
			vs := make([]Vector, 0, j-i)
			ts := make([]int64, 0, j-i)
			for _, p := range ps[i:j] {
				vs = append(vs, p.Vector)
				ts = append(ts, p.Total)
			}
			var err error
			if v, err = Merge(vs, ts); err != nil {
				return nil, fmt.Errorf("profiles at %s: %w", ps[i].Time.UTC().Format(time.RFC3339Nano), err)
			}
		}
		out = append(out, Point{Time: ps[i].Time, End: ps[i].Time, Vector: v})
		i = j
	}
	return out, nil
}

// Window is one step of a range, [From, To] with To inclusive at
// millisecond precision, as the querier API reads ranges.
type Window struct{ From, To time.Time }

// Windows splits [from, to] into windows of step from its start. When that
// makes more than limit windows the step grows (to a whole number of
// milliseconds) until it fits, and widened is true.
func Windows(from, to time.Time, step time.Duration, limit int) (ws []Window, used time.Duration, widened bool, err error) {
	if step <= 0 {
		return nil, 0, false, fmt.Errorf("the step is %s: set the query's interval, max data points or the datasource's minimum step", step)
	}
	if limit < 1 {
		return nil, 0, false, fmt.Errorf("at most %d windows: want at least 1", limit)
	}
	from = from.Truncate(time.Millisecond)
	span := to.Sub(from)
	if span <= 0 {
		return nil, step, false, nil
	}
	if n := (span + step - 1) / step; int64(n) > int64(limit) {
		step = ((span+time.Duration(limit)-1)/time.Duration(limit) + time.Millisecond - 1).Truncate(time.Millisecond)
		widened = true
	}
	for start := from; start.Before(to); start = start.Add(step) {
		end := start.Add(step - time.Millisecond)
		if next := start.Add(step); !next.Before(to) {
			end = to
		}
		ws = append(ws, Window{From: start, To: end})
	}
	return ws, step, widened, nil
}

// WindowPoints fetches the vector of every window, at most concurrency at
// once, and returns the points in window order. Each vector is built as its
// window arrives (fetch returns it), so no tree outlives its window.
func WindowPoints(ctx context.Context, ws []Window, concurrency int, fetch func(context.Context, Window) (Vector, error)) ([]Point, error) {
	out := make([]Point, len(ws))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(max(concurrency, 1))
	for i, w := range ws {
		g.Go(func() error {
			v, err := fetch(gctx, w)
			if err != nil {
				return fmt.Errorf("window %s to %s: %w", w.From.UTC().Format(time.RFC3339), w.To.UTC().Format(time.RFC3339), err)
			}
			out[i] = Point{Time: w.From, End: w.To, Vector: v}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return out, nil
}

// SeriesOptions are the options ScoreSeries scores pts with: opts with
// defaults, and with MethodSurprise and no Interval, the series' push
// interval measured as the median time between its points (points sorted
// by time).
func SeriesOptions(opts Options, pts []Point) (Options, error) {
	if opts.Interval == 0 && (opts.Method == "" || opts.Method == MethodSurprise) {
		opts.Interval = medianGap(pts)
	}
	return opts.WithDefaults()
}

// medianGap is the median time between consecutive points (0 for fewer
// than two, or when most share a time).
func medianGap(pts []Point) time.Duration {
	if len(pts) < 2 {
		return 0
	}
	gaps := make([]time.Duration, 0, len(pts)-1)
	for i := 1; i < len(pts); i++ {
		gaps = append(gaps, pts[i].Time.Sub(pts[i-1].Time))
	}
	slices.Sort(gaps)
	return max(0, gaps[len(gaps)/2])
}
