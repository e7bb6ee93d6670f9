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

	"github.com/emberscope/emberscope/pkg/profile/pprofconv"
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
	// the ingested profiles of each bucket (keepProfiles), in scan order
	profs   map[int64][]*profEntry
	profIdx map[int64]map[storage.ProfileID]*profEntry
	// the spans of each bucket (keepSpans), in scan order
	spans   map[int64][]*spanEntry
	spanIdx map[int64]map[spanKey]*spanEntry
	total   int64
}

// profEntry is one ingested profile within a group and step: the store
// files the sample-label series of a profile apart, they share its id.
type profEntry struct {
	id    storage.ProfileID
	time  int64
	total int64
	// labels are the labels all its series in the group share
	labels storage.Labels
}

// spanEntry is one span of one profile within a group and step.
type spanEntry struct {
	span   uint64
	trace  pprofconv.TraceID
	time   int64
	value  int64
	labels storage.Labels
}

type spanKey struct {
	profile storage.ProfileID
	span    uint64
}

// keep says what grouped keeps besides the sums per step.
type keep int

const (
	keepSums keep = iota
	keepProfiles
	keepSpans
)

// grouped scans the selection's profiles into groups by the group_by
// labels and into step buckets, keeping per profile or per span what k says.
func (q *Querier) grouped(ctx context.Context, series []uint32, from, to int64, groupBy []string, stepNs int64, k keep) ([]*group, error) {
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
			g = &group{labels: pairs, key: key.String(), buckets: make(map[int64]*bucket),
				profs: make(map[int64][]*profEntry), profIdx: make(map[int64]map[storage.ProfileID]*profEntry),
				spans: make(map[int64][]*spanEntry), spanIdx: make(map[int64]map[spanKey]*spanEntry)}
			groups[g.key] = g
		}
		bySeries[id] = g
	}
	err := q.db.ScanContext(ctx, series, from, to, k == keepSums, func(p *storage.Profile) error {
		g := bySeries[p.Series]
		// As Pyroscope: the point at from+k*step sums the profiles in
		// (from+(k-1)*step, from+k*step]; profiles after the last step
		// that fits in the range make no point.
		b := (p.Time - from + stepNs - 1) / stepNs
		if from+b*stepNs > to {
			return nil
		}
		bk := g.buckets[b]
		if bk == nil {
			bk = &bucket{}
			g.buckets[b] = bk
		}
		bk.sum = storage.SaturatingAdd(bk.sum, p.Total)
		bk.count++
		g.total = storage.SaturatingAdd(g.total, p.Total)
		switch k {
		case keepProfiles:
			g.addProfile(b, p, q.db.SeriesLabels(p.Series))
		case keepSpans:
			g.addSpans(b, p, q.db.SeriesLabels(p.Series))
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

func (g *group) addProfile(b int64, p *storage.Profile, ls storage.Labels) {
	idx := g.profIdx[b]
	if idx == nil {
		idx = make(map[storage.ProfileID]*profEntry)
		g.profIdx[b] = idx
	}
	e := idx[p.ID]
	if e == nil {
		e = &profEntry{id: p.ID, time: p.Time, labels: ls}
		idx[p.ID] = e
		g.profs[b] = append(g.profs[b], e)
	} else {
		e.labels = commonLabels(e.labels, ls)
	}
	e.total = storage.SaturatingAdd(e.total, p.Total)
}

func (g *group) addSpans(b int64, p *storage.Profile, ls storage.Labels) {
	if !p.HasSpans() {
		return
	}
	idx := g.spanIdx[b]
	if idx == nil {
		idx = make(map[spanKey]*spanEntry)
		g.spanIdx[b] = idx
	}
	for i, span := range p.Spans {
		if span == 0 {
			continue
		}
		k := spanKey{p.ID, span}
		e := idx[k]
		if e == nil {
			e = &spanEntry{span: span, trace: p.Traces[i], time: p.Time, labels: ls}
			idx[k] = e
			g.spans[b] = append(g.spans[b], e)
		}
		e.value = storage.SaturatingAdd(e.value, p.Values[i])
	}
}

// commonLabels returns the labels of a (sorted) that b has too.
func commonLabels(a, b storage.Labels) storage.Labels {
	out := make(storage.Labels, 0, len(a))
	for _, l := range a {
		if b.Get(l.Name) == l.Value {
			out = append(out, l)
		}
	}
	return out
}

// exemplarLabels are an exemplar's labels: its profile's, without those
// the series it belongs to is named by (the group_by labels).
func exemplarLabels(ls storage.Labels, groupBy []string) []*typesv1.LabelPair {
	out := make([]*typesv1.LabelPair, 0, len(ls))
	for _, l := range ls {
		if !contains(groupBy, l.Name) {
			out = append(out, &typesv1.LabelPair{Name: l.Name, Value: l.Value})
		}
	}
	return out
}

func profileExemplar(e *profEntry, groupBy []string) *typesv1.Exemplar {
	return &typesv1.Exemplar{Timestamp: e.time / 1e6, ProfileId: e.id.String(), Value: e.total, Labels: exemplarLabels(e.labels, groupBy)}
}

func spanExemplar(e *spanEntry, groupBy []string) *typesv1.Exemplar {
	ex := &typesv1.Exemplar{Timestamp: e.time / 1e6, SpanId: pprofconv.FormatSpanID(e.span), Value: e.value, Labels: exemplarLabels(e.labels, groupBy)}
	if !e.trace.IsZero() {
		ex.TraceId = e.trace.String()
	}
	return ex
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
	k := keepSums
	switch m.ExemplarType {
	case typesv1.ExemplarType_EXEMPLAR_TYPE_UNSPECIFIED, typesv1.ExemplarType_EXEMPLAR_TYPE_NONE:
	case typesv1.ExemplarType_EXEMPLAR_TYPE_INDIVIDUAL:
		k = keepProfiles
	case typesv1.ExemplarType_EXEMPLAR_TYPE_SPAN:
		// As Pyroscope v2.2.1 answers (recording 55).
		return nil, connect.NewError(connect.CodeUnknown, fmt.Errorf("exemplar type span is not implemented (SelectSeries gives EXEMPLAR_TYPE_INDIVIDUAL exemplars; span exemplars come with SelectHeatmap HEATMAP_QUERY_TYPE_SPAN)"))
	default:
		return nil, connect.NewError(connect.CodeInvalidArgument, fmt.Errorf("unknown exemplar type %d", m.ExemplarType))
	}
	series, from, to, err := q.selection(m.ProfileTypeID, m.LabelSelector, m.Start, m.End)
	if err != nil {
		return nil, err
	}
	gs, err := q.grouped(ctx, series, from, to, m.GroupBy, stepNs, k)
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
			pt := &typesv1.Point{Value: v, Timestamp: (from + k*stepNs) / 1e6}
			// One exemplar a point, as Pyroscope gives (recordings 54,
			// 56): the point's largest profile.
			var top *profEntry
			for _, e := range g.profs[k] {
				if top == nil || e.total > top.total {
					top = e
				}
			}
			if top != nil {
				pt.Exemplars = []*typesv1.Exemplar{profileExemplar(top, m.GroupBy)}
			}
			s.Points = append(s.Points, pt)
		}
		out = append(out, s)
	}
	return connect.NewResponse(&querierv1.SelectSeriesResponse{Series: out}), nil
}

// heatmapRows is the number of value buckets of a heatmap.
const heatmapRows = 20

// SelectHeatmap counts, per step, how many profiles
// (HEATMAP_QUERY_TYPE_INDIVIDUAL) or spans (HEATMAP_QUERY_TYPE_SPAN) have a
// value in each of heatmapRows equal ranges from the selection's smallest
// to its largest value. A profile filed as several sample-label series
// counts once, with its whole total; a span's value is the sum of its
// samples. With exemplars of the query's type, each cell that counts
// something gives one: its largest profile (profile id) or span (span and
// trace id), as Pyroscope gives them (recordings 57, 58).
func (q *Querier) SelectHeatmap(ctx context.Context, req *connect.Request[querierv1.SelectHeatmapRequest]) (*connect.Response[querierv1.SelectHeatmapResponse], error) {
	m := req.Msg
	var k keep
	var want typesv1.ExemplarType
	switch m.QueryType {
	case querierv1.HeatmapQueryType_HEATMAP_QUERY_TYPE_INDIVIDUAL:
		k, want = keepProfiles, typesv1.ExemplarType_EXEMPLAR_TYPE_INDIVIDUAL
	case querierv1.HeatmapQueryType_HEATMAP_QUERY_TYPE_SPAN:
		k, want = keepSpans, typesv1.ExemplarType_EXEMPLAR_TYPE_SPAN
	default:
		// Pyroscope answers 500 unknown here (recording 29).
		return nil, connect.NewError(connect.CodeUnknown, fmt.Errorf("valid heatmap query type must be specified (queryType: HEATMAP_QUERY_TYPE_INDIVIDUAL or HEATMAP_QUERY_TYPE_SPAN)"))
	}
	exemplars := false
	switch m.ExemplarType {
	case typesv1.ExemplarType_EXEMPLAR_TYPE_UNSPECIFIED, typesv1.ExemplarType_EXEMPLAR_TYPE_NONE:
	case want:
		exemplars = true
	default:
		return nil, connect.NewError(connect.CodeInvalidArgument, fmt.Errorf("exemplar type %s does not match query type %s (want %s or EXEMPLAR_TYPE_NONE)", m.ExemplarType, m.QueryType, want))
	}
	stepNs, err := stepNanos(m.Step)
	if err != nil {
		return nil, err
	}
	series, from, to, err := q.selection(m.ProfileTypeID, m.LabelSelector, m.Start, m.End)
	if err != nil {
		return nil, err
	}
	gs, err := q.grouped(ctx, series, from, to, m.GroupBy, stepNs, k)
	if err != nil {
		return nil, err
	}
	// The cells' values: one per profile or per span.
	type cell struct {
		value int64
		ex    func() *typesv1.Exemplar
		time  int64
	}
	values := make(map[*group]map[int64][]cell)
	lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
	for _, g := range gs {
		byStep := make(map[int64][]cell)
		for b := range g.buckets {
			var cs []cell
			if k == keepProfiles {
				for _, e := range g.profs[b] {
					cs = append(cs, cell{e.total, func() *typesv1.Exemplar { return profileExemplar(e, m.GroupBy) }, e.time})
				}
			} else {
				for _, e := range g.spans[b] {
					cs = append(cs, cell{e.value, func() *typesv1.Exemplar { return spanExemplar(e, m.GroupBy) }, e.time})
				}
			}
			for _, c := range cs {
				lo, hi = min(lo, c.value), max(hi, c.value)
			}
			if len(cs) > 0 {
				byStep[b] = cs
			}
		}
		values[g] = byStep
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
		for _, b := range sortedBuckets(g.buckets) {
			cs, ok := values[g][b]
			if !ok {
				continue
			}
			counts := make([]int32, heatmapRows)
			top := make([]*cell, heatmapRows)
			for i := range cs {
				c := &cs[i]
				row := heatmapRows - 1
				if width > 0 {
					row = min(max(int((float64(c.value)-float64(lo))/width), 0), heatmapRows-1)
				}
				counts[row]++
				if top[row] == nil || c.value > top[row].value {
					top[row] = c
				}
			}
			slot := &typesv1.HeatmapSlot{Timestamp: (from + b*stepNs) / 1e6, YMin: yMin, Counts: counts}
			if exemplars {
				var picked []*cell
				for _, c := range top {
					if c != nil {
						picked = append(picked, c)
					}
				}
				sort.SliceStable(picked, func(i, j int) bool {
					if picked[i].time != picked[j].time {
						return picked[i].time < picked[j].time
					}
					return picked[i].value < picked[j].value
				})
				for _, c := range picked {
					slot.Exemplars = append(slot.Exemplars, c.ex())
				}
			}
			hs.Slots = append(hs.Slots, slot)
		}
		out = append(out, hs)
	}
	return connect.NewResponse(&querierv1.SelectHeatmapResponse{Series: out}), nil
}
