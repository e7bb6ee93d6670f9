// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package rangesplit

import (
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/google/pprof/profile"

	"github.com/emberscope/emberscope/pkg/datasource/source"
	"github.com/emberscope/emberscope/pkg/profile/flame"
	"github.com/emberscope/emberscope/pkg/profile/model"
)

// unionTypes is the profile types of any part, sorted by ID.
func unionTypes(parts [][]model.ProfileType) []model.ProfileType {
	seen := map[string]bool{}
	var out []model.ProfileType
	for _, p := range parts {
		for _, t := range p {
			if id := t.String(); !seen[id] {
				seen[id] = true
				out = append(out, t)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

// unionStrings is the strings of any part, sorted.
func unionStrings(parts [][]string) []string {
	var out []string
	for _, p := range parts {
		out = append(out, p...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// mergeTrees sums the trees node for node (Tree.Merge) and cuts the sum to
// maxNodes (flame.Truncate), as the server cuts one tree.
func mergeTrees(parts []*flame.Tree, maxNodes int) *flame.Tree {
	out := flame.New()
	for _, t := range parts {
		if t != nil {
			out.Merge(t)
		}
	}
	return flame.Truncate(out, maxNodes)
}

// mergeProfiles merges the profiles that hold samples; all empty, the first.
func mergeProfiles(parts []*profile.Profile) (*profile.Profile, error) {
	var full []*profile.Profile
	for _, p := range parts {
		if p != nil && len(p.Sample) > 0 {
			full = append(full, p)
		}
	}
	switch len(full) {
	case 0:
		if len(parts) > 0 && parts[0] != nil {
			return parts[0], nil
		}
		return &profile.Profile{}, nil
	case 1:
		return full[0], nil
	}
	p, err := profile.Merge(full)
	if err != nil {
		return nil, fmt.Errorf("merge the profiles of %d pieces of the range: %w", len(full), err)
	}
	return p, nil
}

// mergeSeries adds the points of the pieces into the whole request's
// points: a point of piece i at t goes to the whole request's point of the
// step window holding t, from+⌈(t−from)/step⌉·step; a piece's point at its
// own start (other than the whole range's start) repeats the profiles
// exactly there that the piece before counted, and is dropped. Series are
// ordered by their total, largest first, then by labels, as Pyroscope
// orders them.
func mergeSeries(r source.TimeRange, step time.Duration, pieces []seriesPiece, parts [][]source.Series) []source.Series {
	type acc struct {
		labels model.Labels
		points map[int64]float64
		// exemplars keeps the largest-valued exemplar of each point, as a
		// server gives one a point.
		exemplars map[int64]source.Exemplar
		total     float64
	}
	from := r.From.UnixMilli()
	stepMs := step.Milliseconds()
	byKey := map[string]*acc{}
	var keys []string
	for i, ss := range parts {
		start := pieces[i].From.UnixMilli()
		for _, se := range ss {
			k := se.Labels.Key()
			a := byKey[k]
			if a == nil {
				a = &acc{labels: se.Labels, points: map[int64]float64{}, exemplars: map[int64]source.Exemplar{}}
				byKey[k] = a
				keys = append(keys, k)
			}
			for _, p := range se.Points {
				t := p.Time.UnixMilli()
				if i > 0 && t == start {
					continue
				}
				if stepMs > 0 && t > from {
					t = from + (t-from+stepMs-1)/stepMs*stepMs
				}
				if t > r.To.UnixMilli() {
					continue
				}
				a.points[t] += p.Value
				a.total += p.Value
				for _, ex := range p.Exemplars {
					if cur, ok := a.exemplars[t]; !ok || ex.Value > cur.Value {
						a.exemplars[t] = ex
					}
				}
			}
		}
	}
	out := make([]source.Series, 0, len(keys))
	sort.SliceStable(keys, func(i, j int) bool {
		a, b := byKey[keys[i]], byKey[keys[j]]
		if a.total != b.total {
			return a.total > b.total
		}
		return keys[i] < keys[j]
	})
	for _, k := range keys {
		a := byKey[k]
		if len(a.points) == 0 {
			continue
		}
		ts := make([]int64, 0, len(a.points))
		for t := range a.points {
			ts = append(ts, t)
		}
		slices.Sort(ts)
		se := source.Series{Labels: a.labels, Points: make([]source.Point, len(ts))}
		for i, t := range ts {
			se.Points[i] = source.Point{Time: time.UnixMilli(t).UTC(), Value: a.points[t]}
			if ex, ok := a.exemplars[t]; ok {
				se.Points[i].Exemplars = []source.Exemplar{ex}
			}
		}
		out = append(out, se)
	}
	return out
}
