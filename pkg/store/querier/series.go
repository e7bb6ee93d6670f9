// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package querier

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"

	"connectrpc.com/connect"
	querierv1 "github.com/grafana/pyroscope/api/gen/proto/go/querier/v1"
	typesv1 "github.com/grafana/pyroscope/api/gen/proto/go/types/v1"

	"github.com/emberscope/emberscope/pkg/model"
	"github.com/emberscope/emberscope/pkg/store/storage"
)

type bucket struct {
	sum   int64
	count int64
}

type group struct {
	labels  []*typesv1.LabelPair
	key     string
	buckets map[int64]*bucket
	// totals per bucket per profile, for heatmaps
	values map[int64][]int64
	// the ingested profile each value belongs to
	profiles map[int64][]profileKey
	total    int64
}

// profileKey names one ingested profile: the store files the sample-label
// series of a profile apart, Pyroscope's heatmap counts the profile once.
type profileKey struct {
	time    int64
	service string
}

// grouped scans the selection's profile totals into groups by the group_by
// labels and into step buckets. keepValues keeps every profile total.
func (q *Querier) grouped(ctx context.Context, series []uint32, from, to int64, groupBy []string, stepNs int64, keepValues bool) ([]*group, error) {
	groups := make(map[string]*group)
	bySeries := make(map[uint32]*group, len(series))
	for _, id := range series {
		ls := q.db.SeriesLabels(id)
		var pairs []*typesv1.LabelPair
		var key strings.Builder
		for _, name := range groupBy {
			if v := ls.Get(name); v != "" {
				pairs = append(pairs, &typesv1.LabelPair{Name: name, Value: v})
				key.WriteString(name + "\xff" + v + "\xfe")
			}
		}
		g := groups[key.String()]
		if g == nil {
			g = &group{labels: pairs, key: key.String(), buckets: make(map[int64]*bucket), values: make(map[int64][]int64), profiles: make(map[int64][]profileKey)}
			groups[g.key] = g
		}
		bySeries[id] = g
	}
	err := q.db.ScanContext(ctx, series, from, to, true, func(p *storage.Profile) error {
		g := bySeries[p.Series]
		// As Pyroscope: the point at from+k*step sums the profiles in
		// (from+(k-1)*step, from+k*step]; profiles after the last step
		// that fits in the range make no point.
		k := (p.Time - from + stepNs - 1) / stepNs
		if from+k*stepNs > to {
			return nil
		}
		b := g.buckets[k]
		if b == nil {
			b = &bucket{}
			g.buckets[k] = b
		}
		b.sum = storage.SaturatingAdd(b.sum, p.Total)
		b.count++
		g.total = storage.SaturatingAdd(g.total, p.Total)
		if keepValues {
			g.values[k] = append(g.values[k], p.Total)
			g.profiles[k] = append(g.profiles[k], profileKey{time: p.Time, service: q.db.SeriesLabels(p.Series).Get(model.LabelNameServiceName)})
		}
		return nil
	})
	if err != nil {
		return nil, scanError(err)
	}
	out := make([]*group, 0, len(groups))
	for _, g := range groups {
		if len(g.buckets) > 0 {
			out = append(out, g)
		}
	}
	return out, nil
}

// limitGroups orders the groups by their total, largest first (then by
// labels), as Pyroscope answers, and keeps the first limit of them.
func limitGroups(gs []*group, limit *int64) []*group {
	sort.Slice(gs, func(a, b int) bool {
		if gs[a].total != gs[b].total {
			return gs[a].total > gs[b].total
		}
		return gs[a].key < gs[b].key
	})
	if limit != nil && *limit > 0 && int64(len(gs)) > *limit {
		gs = gs[:*limit]
	}
	return gs
}

func stepNanos(step float64) (int64, error) {
	if !(step >= 0.001) || math.IsInf(step, 0) || step*1e9 > math.MaxInt64/2 {
		return 0, connect.NewError(connect.CodeInvalidArgument, fmt.Errorf("step must be >= 1ms (got %v s)", step))
	}
	return max(int64(step*1e9), 1), nil
}

func sortedBuckets(m map[int64]*bucket) []int64 {
	keys := make([]int64, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(a, b int) bool { return keys[a] < keys[b] })
	return keys
}

// SelectSeries sums (or averages) the profile totals of the selection per
// step, one series per group_by value set.
func (q *Querier) SelectSeries(ctx context.Context, req *connect.Request[querierv1.SelectSeriesRequest]) (*connect.Response[querierv1.SelectSeriesResponse], error) {
	m := req.Msg
	stepNs, err := stepNanos(m.Step)
	if err != nil {
		return nil, err
	}
	series, from, to, err := q.selection(m.ProfileTypeID, m.LabelSelector, m.Start, m.End)
	if err != nil {
		return nil, err
	}
	gs, err := q.grouped(ctx, series, from, to, m.GroupBy, stepNs, false)
	if err != nil {
		return nil, err
	}
	average := m.Aggregation != nil && *m.Aggregation == typesv1.TimeSeriesAggregationType_TIME_SERIES_AGGREGATION_TYPE_AVERAGE
	out := make([]*typesv1.Series, 0, len(gs))
	for _, g := range limitGroups(gs, m.Limit) {
		s := &typesv1.Series{Labels: g.labels}
		for _, k := range sortedBuckets(g.buckets) {
			b := g.buckets[k]
			v := float64(b.sum)
			if average {
				v /= float64(b.count)
			}
			s.Points = append(s.Points, &typesv1.Point{Value: v, Timestamp: (from + k*stepNs) / 1e6})
		}
		out = append(out, s)
	}
	return connect.NewResponse(&querierv1.SelectSeriesResponse{Series: out}), nil
}

// heatmapRows is the number of value buckets of a heatmap.
const heatmapRows = 20

// SelectHeatmap counts, per step, how many profiles have a total in each of
// heatmapRows equal value ranges from the selection's smallest to its
// largest profile total (HEATMAP_QUERY_TYPE_INDIVIDUAL, the only type this
// store keeps what it needs for). A profile filed as several sample-label
// series counts once, with its whole total.
func (q *Querier) SelectHeatmap(ctx context.Context, req *connect.Request[querierv1.SelectHeatmapRequest]) (*connect.Response[querierv1.SelectHeatmapResponse], error) {
	m := req.Msg
	switch m.QueryType {
	case querierv1.HeatmapQueryType_HEATMAP_QUERY_TYPE_INDIVIDUAL:
	case querierv1.HeatmapQueryType_HEATMAP_QUERY_TYPE_SPAN:
		return nil, connect.NewError(connect.CodeInvalidArgument, fmt.Errorf("span heatmaps are not supported: this store keeps no span ids"))
	default:
		// Pyroscope answers 500 unknown here (recording 29).
		return nil, connect.NewError(connect.CodeUnknown, fmt.Errorf("valid heatmap query type must be specified (queryType: HEATMAP_QUERY_TYPE_INDIVIDUAL)"))
	}
	stepNs, err := stepNanos(m.Step)
	if err != nil {
		return nil, err
	}
	series, from, to, err := q.selection(m.ProfileTypeID, m.LabelSelector, m.Start, m.End)
	if err != nil {
		return nil, err
	}
	gs, err := q.grouped(ctx, series, from, to, m.GroupBy, stepNs, true)
	if err != nil {
		return nil, err
	}
	// One total per ingested profile.
	perProfile := make(map[*group]map[int64][]int64)
	lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
	for _, g := range gs {
		byStep := make(map[int64][]int64)
		for k, vs := range g.values {
			sums := make(map[profileKey]int64)
			var order []profileKey
			for i, v := range vs {
				pk := g.profiles[k][i]
				if _, ok := sums[pk]; !ok {
					order = append(order, pk)
				}
				sums[pk] = storage.SaturatingAdd(sums[pk], v)
			}
			for _, pk := range order {
				byStep[k] = append(byStep[k], sums[pk])
				lo, hi = min(lo, sums[pk]), max(hi, sums[pk])
			}
		}
		perProfile[g] = byStep
	}
	// In float64: hi-lo overflows int64 when totals span its whole range.
	width := (float64(hi) - float64(lo)) / heatmapRows
	yMin := make([]float64, heatmapRows)
	for i := range yMin {
		yMin[i] = float64(lo) + float64(i)*width
	}
	out := make([]*typesv1.HeatmapSeries, 0, len(gs))
	for _, g := range limitGroups(gs, m.Limit) {
		hs := &typesv1.HeatmapSeries{Labels: g.labels}
		for _, k := range sortedBuckets(g.buckets) {
			counts := make([]int32, heatmapRows)
			for _, v := range perProfile[g][k] {
				row := heatmapRows - 1
				if width > 0 {
					row = min(max(int((float64(v)-float64(lo))/width), 0), heatmapRows-1)
				}
				counts[row]++
			}
			hs.Slots = append(hs.Slots, &typesv1.HeatmapSlot{Timestamp: (from + k*stepNs) / 1e6, YMin: yMin, Counts: counts})
		}
		out = append(out, hs)
	}
	return connect.NewResponse(&querierv1.SelectHeatmapResponse{Series: out}), nil
}
