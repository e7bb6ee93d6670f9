// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package querier

import (
	"context"
	"fmt"

	"connectrpc.com/connect"
	querierv1 "github.com/grafana/pyroscope/api/gen/proto/go/querier/v1"

	"github.com/emberscope/emberscope/pkg/profile/pprofconv"
	"github.com/emberscope/emberscope/pkg/store/storage"
)

// sampleFilter keeps the samples of a selection that a request's span,
// trace and profile id selectors name; the zero filter keeps all.
type sampleFilter struct {
	spans    map[uint64]bool
	traces   map[pprofconv.TraceID]bool
	profiles map[storage.ProfileID]bool
}

// newSampleFilter parses the selectors. A span id that is not 16 hex
// digits is answered as Pyroscope answers it (recording 52: 500 unknown,
// "invalid span id length").
func newSampleFilter(spans, traces, profiles []string) (sampleFilter, error) {
	var f sampleFilter
	if len(spans) > 0 {
		f.spans = make(map[uint64]bool, len(spans))
		for _, s := range spans {
			id, err := pprofconv.ParseSpanID(s)
			if err != nil {
				return f, connect.NewError(connect.CodeUnknown, fmt.Errorf("%w: span id %q in spanSelector (want 16 hex digits)", err, s))
			}
			f.spans[id] = true
		}
	}
	if len(traces) > 0 {
		f.traces = make(map[pprofconv.TraceID]bool, len(traces))
		for _, s := range traces {
			id, err := pprofconv.ParseTraceID(s)
			if err != nil {
				return f, connect.NewError(connect.CodeInvalidArgument, fmt.Errorf("%w: trace id %q in traceIdSelector (want 32 hex digits)", err, s))
			}
			f.traces[id] = true
		}
	}
	if len(profiles) > 0 {
		f.profiles = make(map[storage.ProfileID]bool, len(profiles))
		for _, s := range profiles {
			id, err := storage.ParseProfileID(s)
			if err != nil {
				return f, connect.NewError(connect.CodeInvalidArgument, fmt.Errorf("profile id %q in profileIdSelector is not a UUID: %w", s, err))
			}
			f.profiles[id] = true
		}
	}
	return f, nil
}

// bySample tells whether the filter looks at each sample's span or trace.
func (f sampleFilter) bySample() bool { return f.spans != nil || f.traces != nil }

// each calls fn with the stack and value of every sample of p the filter keeps.
func (f sampleFilter) each(p *storage.Profile, fn func(stack uint32, value int64)) {
	if f.profiles != nil && !f.profiles[p.ID] {
		return
	}
	if !f.bySample() {
		for i, s := range p.Stacks {
			fn(s, p.Values[i])
		}
		return
	}
	if !p.HasSpans() {
		return
	}
	for i, s := range p.Stacks {
		if f.spans != nil && (p.Spans[i] == 0 || !f.spans[p.Spans[i]]) {
			continue
		}
		if f.traces != nil && (p.Traces[i].IsZero() || !f.traces[p.Traces[i]]) {
			continue
		}
		fn(s, p.Values[i])
	}
}

// SelectMergeSpanProfile merges the samples of the given spans of the
// selected profiles into a flamegraph (or a tree), as SelectMergeStacktraces
// with the same spanSelector answers (recordings 48–51).
func (q *Querier) SelectMergeSpanProfile(ctx context.Context, req *connect.Request[querierv1.SelectMergeSpanProfileRequest]) (*connect.Response[querierv1.SelectMergeSpanProfileResponse], error) {
	m := req.Msg
	limit, err := maxNodes(m.MaxNodes)
	if err != nil {
		return nil, err
	}
	switch m.Format {
	case querierv1.ProfileFormat_PROFILE_FORMAT_UNSPECIFIED, querierv1.ProfileFormat_PROFILE_FORMAT_FLAMEGRAPH, querierv1.ProfileFormat_PROFILE_FORMAT_TREE:
	default:
		return nil, connect.NewError(connect.CodeInvalidArgument, fmt.Errorf("unsupported format %s for a span profile: want PROFILE_FORMAT_FLAMEGRAPH or PROFILE_FORMAT_TREE", m.Format))
	}
	f, err := newSampleFilter(m.SpanSelector, nil, nil)
	if err != nil {
		return nil, err
	}
	series, from, to, err := q.selection(m.ProfileTypeID, m.LabelSelector, m.Start, m.End)
	if err != nil {
		return nil, err
	}
	t, err := q.mergeTree(ctx, series, from, to, f, stackSelection{})
	if err != nil {
		return nil, err
	}
	if m.Format == querierv1.ProfileFormat_PROFILE_FORMAT_TREE {
		return connect.NewResponse(&querierv1.SelectMergeSpanProfileResponse{Tree: TreeBytes(t, limit)}), nil
	}
	return connect.NewResponse(&querierv1.SelectMergeSpanProfileResponse{Flamegraph: FlameGraph(t, limit)}), nil
}
