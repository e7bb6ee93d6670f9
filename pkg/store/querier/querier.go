// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Package querier serves Pyroscope's querier.v1.QuerierService over connect
// from the embedded store, answering like Grafana Pyroscope v2.2.1 (checked
// against its recorded answers by pkg/store's replay suite): same encodings
// (flamegraph levels in Pyroscope's node and name order, the binary tree of
// PROFILE_FORMAT_TREE, diff tuples, pprof), same series alignment and order,
// same defaults and limits, and the same status codes and error codes.
package querier

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"connectrpc.com/connect"
	querierv1 "github.com/grafana/pyroscope/api/gen/proto/go/querier/v1"
	"github.com/grafana/pyroscope/api/gen/proto/go/querier/v1/querierv1connect"
	typesv1 "github.com/grafana/pyroscope/api/gen/proto/go/types/v1"
	"github.com/prometheus/prometheus/model/labels"

	"github.com/emberscope/emberscope/pkg/profile/flame"
	"github.com/emberscope/emberscope/pkg/profile/model"
	"github.com/emberscope/emberscope/pkg/store/storage"
	"github.com/emberscope/emberscope/pkg/store/tenant"
)

// Querier answers queries from a storage.DB.
type Querier struct {
	querierv1connect.UnimplementedQuerierServiceHandler
	db  *storage.DB
	now func() time.Time
}

// New returns a Querier over db.
func New(db *storage.DB) *Querier { return &Querier{db: db, now: time.Now} }

// seriesInRange checks a request's time range (unix ms, defaulting as
// timeRange does) and returns the series its selectors match within it.
func (q *Querier) seriesInRange(selectors []string, start, end int64) ([]uint32, error) {
	from, to, err := timeRange(start, end, q.now())
	if err != nil {
		return nil, err
	}
	return q.selectSeries(selectors, from, to)
}

// selectSeries returns the series matching any of the selectors (all when
// none is given) within the range.
func (q *Querier) selectSeries(selectors []string, start, end int64) ([]uint32, error) {
	if len(selectors) == 0 {
		return q.db.Select(nil, start, end), nil
	}
	seen := make(map[uint32]bool)
	var out []uint32
	for _, s := range selectors {
		ms, err := parseSelector(s)
		if err != nil {
			return nil, err
		}
		for _, id := range q.db.Select(ms, start, end) {
			if !seen[id] {
				seen[id] = true
				out = append(out, id)
			}
		}
	}
	sort.Slice(out, func(a, b int) bool { return out[a] < out[b] })
	return out, nil
}

// selection resolves a profile type and a selector into series and a range.
func (q *Querier) selection(profileTypeID, selector string, start, end int64) ([]uint32, int64, int64, error) {
	ptm, err := profileTypeMatcher(profileTypeID)
	if err != nil {
		return nil, 0, 0, err
	}
	ms, err := parseSelector(selector)
	if err != nil {
		return nil, 0, 0, err
	}
	from, to, err := timeRange(start, end, q.now())
	if err != nil {
		return nil, 0, 0, err
	}
	return q.db.Select(append([]*labels.Matcher{ptm}, ms...), from, to), from, to, nil
}

// ProfileTypes lists the profile types with data in the range.
func (q *Querier) ProfileTypes(ctx context.Context, req *connect.Request[querierv1.ProfileTypesRequest]) (*connect.Response[querierv1.ProfileTypesResponse], error) {
	from, to, err := timeRange(req.Msg.Start, req.Msg.End, q.now())
	if err != nil {
		return nil, err
	}
	types := make(map[string]*typesv1.ProfileType)
	for _, id := range q.db.Select([]*labels.Matcher{tenant.Matcher(ctx)}, from, to) {
		ls := q.db.SeriesLabels(id)
		pt := ls.Get(model.LabelNameProfileType)
		if pt == "" || types[pt] != nil {
			continue
		}
		types[pt] = &typesv1.ProfileType{
			ID: pt, Name: ls.Get(model.LabelNameProfileName),
			SampleType: ls.Get(model.LabelNameType), SampleUnit: ls.Get(model.LabelNameUnit),
			PeriodType: ls.Get(model.LabelNamePeriodType), PeriodUnit: ls.Get(model.LabelNamePeriodUnit),
		}
	}
	out := make([]*typesv1.ProfileType, 0, len(types))
	for _, t := range types {
		out = append(out, t)
	}
	sort.Slice(out, func(a, b int) bool { return out[a].ID < out[b].ID })
	return connect.NewResponse(&querierv1.ProfileTypesResponse{ProfileTypes: out}), nil
}

// LabelNames lists the label names of the matching series, sorted.
func (q *Querier) LabelNames(ctx context.Context, req *connect.Request[typesv1.LabelNamesRequest]) (*connect.Response[typesv1.LabelNamesResponse], error) {
	ids, err := q.seriesInRange(req.Msg.Matchers, req.Msg.Start, req.Msg.End)
	if err != nil {
		return nil, err
	}
	set := make(map[string]bool)
	for _, id := range ids {
		for _, l := range q.db.SeriesLabels(id) {
			set[l.Name] = true
		}
	}
	return connect.NewResponse(&typesv1.LabelNamesResponse{Names: sortedKeys(set)}), nil
}

// LabelValues lists the values of one label over the matching series, sorted.
func (q *Querier) LabelValues(ctx context.Context, req *connect.Request[typesv1.LabelValuesRequest]) (*connect.Response[typesv1.LabelValuesResponse], error) {
	if req.Msg.Name == "" {
		return nil, connect.NewError(connect.CodeInvalidArgument, fmt.Errorf("label name is required"))
	}
	ids, err := q.seriesInRange(req.Msg.Matchers, req.Msg.Start, req.Msg.End)
	if err != nil {
		return nil, err
	}
	set := make(map[string]bool)
	for _, id := range ids {
		if v := q.db.SeriesLabels(id).Get(req.Msg.Name); v != "" {
			set[v] = true
		}
	}
	return connect.NewResponse(&typesv1.LabelValuesResponse{Names: sortedKeys(set)}), nil
}

// Series lists the label sets of the matching series, restricted to
// label_names when given.
func (q *Querier) Series(ctx context.Context, req *connect.Request[querierv1.SeriesRequest]) (*connect.Response[querierv1.SeriesResponse], error) {
	ids, err := q.seriesInRange(req.Msg.Matchers, req.Msg.Start, req.Msg.End)
	if err != nil {
		return nil, err
	}
	seen := make(map[string]bool)
	var out []*typesv1.Labels
	for _, id := range ids {
		ls := q.db.SeriesLabels(id)
		var pairs []*typesv1.LabelPair
		key := ""
		for _, l := range ls {
			if len(req.Msg.LabelNames) > 0 && !contains(req.Msg.LabelNames, l.Name) {
				continue
			}
			pairs = append(pairs, &typesv1.LabelPair{Name: l.Name, Value: l.Value})
			key += l.Name + "\xff" + l.Value + "\xfe"
		}
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, &typesv1.Labels{Labels: pairs})
	}
	sort.Slice(out, func(a, b int) bool { return compareLabelPairs(out[a].Labels, out[b].Labels) < 0 })
	return connect.NewResponse(&querierv1.SeriesResponse{LabelsSet: out}), nil
}

// mergeTree merges the selected profiles into one tree: the samples f
// keeps, of the stacks sel's call site keeps. Pyroscope does not apply
// go_pgo to a flamegraph or a tree (recording 87), so neither does it.
func (q *Querier) mergeTree(ctx context.Context, series []uint32, from, to int64, f sampleFilter, sel stackSelection) (*flame.Tree, error) {
	t := flame.New()
	snap := q.db.Snapshot()
	defer snap.Close()
	b := storage.NewTreeBuilder(snap.View(), t)
	add := b.Add
	if sel.byCallSite() {
		m := newCallSiteMatcher(sel.callSite, snap.View())
		add = func(stack uint32, value int64) {
			if m.keeps(stack) {
				b.Add(stack, value)
			}
		}
	}
	if err := snap.ScanContext(ctx, series, from, to, false, func(p *storage.Profile) error {
		f.each(p, add)
		return nil
	}); err != nil {
		return nil, scanError(err)
	}
	b.Flush()
	return t, nil
}

// SelectMergeStacktraces merges the selected profiles into a flamegraph (or a pprof).
func (q *Querier) SelectMergeStacktraces(ctx context.Context, req *connect.Request[querierv1.SelectMergeStacktracesRequest]) (*connect.Response[querierv1.SelectMergeStacktracesResponse], error) {
	m := req.Msg
	limit, err := maxNodes(m.MaxNodes)
	if err != nil {
		return nil, err
	}
	switch m.Format {
	case querierv1.ProfileFormat_PROFILE_FORMAT_UNSPECIFIED, querierv1.ProfileFormat_PROFILE_FORMAT_FLAMEGRAPH,
		querierv1.ProfileFormat_PROFILE_FORMAT_TREE, querierv1.ProfileFormat_PROFILE_FORMAT_PPROF, querierv1.ProfileFormat_PROFILE_FORMAT_DOT:
	default:
		return nil, connect.NewError(connect.CodeInvalidArgument, fmt.Errorf("unsupported format %s: want PROFILE_FORMAT_FLAMEGRAPH, PROFILE_FORMAT_TREE, PROFILE_FORMAT_PPROF or PROFILE_FORMAT_DOT", m.Format))
	}
	f, err := newSampleFilter(m.SpanSelector, m.TraceIdSelector, m.ProfileIdSelector)
	if err != nil {
		return nil, err
	}
	sel := newStackSelection(m.StackTraceSelector)
	series, from, to, err := q.selection(m.ProfileTypeID, m.LabelSelector, m.Start, m.End)
	if err != nil {
		return nil, err
	}
	if m.Format == querierv1.ProfileFormat_PROFILE_FORMAT_DOT {
		p, err := q.mergePprof(ctx, m.ProfileTypeID, series, from, to, f, sel)
		if err != nil {
			return nil, err
		}
		dot, err := dotGraph(p, limit)
		if err != nil {
			return nil, connect.NewError(connect.CodeInternal, err)
		}
		return connect.NewResponse(&querierv1.SelectMergeStacktracesResponse{Dot: dot}), nil
	}
	if m.Format == querierv1.ProfileFormat_PROFILE_FORMAT_PPROF {
		p, err := q.mergeProfile(ctx, m.ProfileTypeID, series, from, to, f, sel)
		if err != nil {
			return nil, err
		}
		return connect.NewResponse(&querierv1.SelectMergeStacktracesResponse{Pprof: &querierv1.PprofProfile{Profile: p}}), nil
	}
	t, err := q.mergeTree(ctx, series, from, to, f, sel)
	if err != nil {
		return nil, err
	}
	if m.Format == querierv1.ProfileFormat_PROFILE_FORMAT_TREE {
		return connect.NewResponse(&querierv1.SelectMergeStacktracesResponse{Tree: TreeBytes(t, limit)}), nil
	}
	return connect.NewResponse(&querierv1.SelectMergeStacktracesResponse{Flamegraph: FlameGraph(t, limit)}), nil
}

// Diff compares two selections in one flamegraph. Each side is selected as
// SelectMergeStacktraces selects it, its call site included.
func (q *Querier) Diff(ctx context.Context, req *connect.Request[querierv1.DiffRequest]) (*connect.Response[querierv1.DiffResponse], error) {
	if req.Msg.Left == nil || req.Msg.Right == nil {
		return nil, connect.NewError(connect.CodeInvalidArgument, fmt.Errorf("diff needs both left and right"))
	}
	var trees [2]*flame.Tree
	limit := 0
	for i, side := range []*querierv1.SelectMergeStacktracesRequest{req.Msg.Left, req.Msg.Right} {
		l, err := maxNodes(side.MaxNodes)
		if err != nil {
			return nil, err
		}
		limit = max(limit, l)
		series, from, to, err := q.selection(side.ProfileTypeID, side.LabelSelector, side.Start, side.End)
		if err != nil {
			return nil, err
		}
		if trees[i], err = q.mergeTree(ctx, series, from, to, sampleFilter{}, newStackSelection(side.StackTraceSelector)); err != nil {
			return nil, err
		}
	}
	return connect.NewResponse(&querierv1.DiffResponse{Flamegraph: DiffFlameGraph(trees[0], trees[1], limit)}), nil
}

func sortedKeys(set map[string]bool) []string {
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// compareLabelPairs orders label sets pair by pair, name then value, as
// Pyroscope lists them.
func compareLabelPairs(a, b []*typesv1.LabelPair) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if c := strings.Compare(a[i].Name, b[i].Name); c != 0 {
			return c
		}
		if c := strings.Compare(a[i].Value, b[i].Value); c != 0 {
			return c
		}
	}
	return len(a) - len(b)
}
