// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package parca

import (
	"context"
	"net/url"
	"slices"
	"strconv"
	"time"

	"github.com/emberscope/emberscope/pkg/datasource/source"
	"github.com/emberscope/emberscope/pkg/profile/model"
)

// maxDefaultPoints bounds the points of a series when no step is given.
const maxDefaultPoints = 1000

// Series sums the selection's values per step, one series per value set of
// r.GroupBy, through /api/profiles/query_range. Parca answers one series
// per label set for non-delta types even without sumBy, so the client sums
// series by r.GroupBy itself: the result is the same on every server. A
// 404 (Parca's "no data") gives no series.
func (c *Client) Series(ctx context.Context, r source.SeriesRequest) ([]source.Series, error) {
	if err := checkRange(r.Range); err != nil {
		return nil, err
	}
	query, err := c.query(ctx, r.Selection)
	if err != nil {
		return nil, err
	}
	step := r.Step
	if step <= 0 {
		step = defaultStep(r.Range)
	}
	q := url.Values{}
	q.Set("query", query)
	addRange(q, "", r.Range)
	// Without a step Parca stamps every point 1970-01-01, so one is always sent.
	q.Set("step", formatStep(step))
	for _, g := range r.GroupBy {
		q.Add("sumBy", g)
	}
	var resp queryRangeResponse
	err = c.get(ctx, "/api/profiles/query_range", q, &resp)
	if isNotFound(err) {
		return []source.Series{}, nil
	}
	if err != nil {
		return nil, err
	}
	return sumSeries(resp.Series, r.GroupBy), nil
}

// formatStep writes a step as a duration Parca parses: whole hours in
// hours ("1h"), anything else in seconds ("60s", "0.5s").
func formatStep(d time.Duration) string {
	if d >= time.Hour && d%time.Hour == 0 {
		return strconv.FormatInt(int64(d/time.Hour), 10) + "h"
	}
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + "s"
}

// defaultStep picks a whole-second step giving at most maxDefaultPoints.
func defaultStep(r source.TimeRange) time.Duration {
	step := r.To.Sub(r.From) / maxDefaultPoints
	if rounded := step.Truncate(time.Second); rounded < step {
		step = rounded + time.Second
	}
	return max(step, time.Second)
}

// sumSeries projects each series' labels onto groupBy (in its order,
// absent labels left out), sums the values of equal label sets at equal
// times, and orders the series by their labels.
func sumSeries(in []wireSeries, groupBy []string) []source.Series {
	type acc struct {
		labels model.Labels
		byTime map[time.Time]float64
	}
	groups := map[string]*acc{}
	for _, ws := range in {
		ls := project(ws.Labelset.Labels, groupBy)
		key := ls.Key()
		a := groups[key]
		if a == nil {
			a = &acc{labels: ls, byTime: map[time.Time]float64{}}
			groups[key] = a
		}
		for _, s := range ws.Samples {
			a.byTime[s.Timestamp.UTC()] += float64(s.Value)
		}
	}
	keys := make([]string, 0, len(groups))
	for k := range groups {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int { return model.CompareLabels(groups[a].labels, groups[b].labels) })
	out := make([]source.Series, 0, len(keys))
	for _, k := range keys {
		a := groups[k]
		s := source.Series{Labels: a.labels, Points: make([]source.Point, 0, len(a.byTime))}
		for t, v := range a.byTime {
			s.Points = append(s.Points, source.Point{Time: t, Value: v})
		}
		slices.SortFunc(s.Points, func(x, y source.Point) int { return x.Time.Compare(y.Time) })
		out = append(out, s)
	}
	return out
}

// project keeps the labels named in groupBy, in groupBy's order.
func project(ls []wireLabel, groupBy []string) model.Labels {
	var out model.Labels
	for _, g := range groupBy {
		for _, l := range ls {
			if l.Name == g && l.Value != "" {
				out = append(out, model.Label{Name: g, Value: l.Value})
				break
			}
		}
	}
	return out
}
