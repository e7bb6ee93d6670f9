// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"cmp"
	"slices"
	"time"

	"github.com/emberscope/emberscope/pkg/datasource/source"
	"github.com/emberscope/emberscope/pkg/profile/flame"
	"github.com/emberscope/emberscope/pkg/profile/model"
)

// otherName labels the series (or label value) that sums what a limit left out.
const otherName = flame.OtherName

// foldSeries keeps the limit series of largest sum (ties by label set, so the
// choice is stable) and sums the rest into one series whose group-by labels
// are all "other". It returns the kept series, the "other" one last, and how
// many were folded.
func foldSeries(series []source.Series, limit int, groupBy []string) ([]source.Series, int) {
	if limit <= 0 || len(series) <= limit {
		return series, 0
	}
	type ranked struct {
		s   source.Series
		sum float64
	}
	rs := make([]ranked, len(series))
	for i, s := range series {
		rs[i] = ranked{s: s}
		for _, p := range s.Points {
			rs[i].sum += p.Value
		}
	}
	slices.SortStableFunc(rs, func(a, b ranked) int {
		if c := cmp.Compare(b.sum, a.sum); c != 0 {
			return c
		}
		return model.CompareLabels(a.s.Labels, b.s.Labels)
	})
	out := make([]source.Series, 0, limit+1)
	for _, r := range rs[:limit] {
		out = append(out, r.s)
	}
	sums := map[time.Time]float64{}
	for _, r := range rs[limit:] {
		for _, p := range r.s.Points {
			sums[p.Time] += p.Value
		}
	}
	other := source.Series{}
	for _, name := range groupBy {
		other.Labels = append(other.Labels, model.Label{Name: name, Value: otherName})
	}
	for t, v := range sums {
		other.Points = append(other.Points, source.Point{Time: t, Value: v})
	}
	slices.SortFunc(other.Points, func(a, b source.Point) int { return a.Time.Compare(b.Time) })
	return append(out, other), len(series) - limit
}
