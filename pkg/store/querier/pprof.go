// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package querier

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"time"

	"connectrpc.com/connect"
	"github.com/google/pprof/profile"
	googlev1 "github.com/grafana/pyroscope/api/gen/proto/go/google/v1"
	querierv1 "github.com/grafana/pyroscope/api/gen/proto/go/querier/v1"

	"github.com/emberscope/emberscope/pkg/profile/gopgo"
	"github.com/emberscope/emberscope/pkg/profile/model"
	"github.com/emberscope/emberscope/pkg/store/storage"
)

// SelectMergeProfile merges the selected profiles into one pprof.
func (q *Querier) SelectMergeProfile(ctx context.Context, req *connect.Request[querierv1.SelectMergeProfileRequest]) (*connect.Response[googlev1.Profile], error) {
	m := req.Msg
	if m.MaxNodes != nil {
		if _, err := maxNodes(m.MaxNodes); err != nil {
			return nil, err
		}
	}
	// Pyroscope's SelectMergeProfile has no span selector (one sent is
	// ignored, recording 63); its trace and profile id selectors apply.
	f, err := newSampleFilter(nil, m.TraceIdSelector, m.ProfileIdSelector)
	if err != nil {
		return nil, err
	}
	series, from, to, err := q.selection(m.ProfileTypeID, m.LabelSelector, m.Start, m.End)
	if err != nil {
		return nil, err
	}
	p, err := q.mergeProfile(ctx, m.ProfileTypeID, series, from, to, f, newStackSelection(m.StackTraceSelector))
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(p), nil
}

// mergeProfile builds a pprof with one sample per distinct stack of the
// selection; each frame is a location with one line (function, file and
// line) in the mapping (binary and build id) it was sent with. Only the
// samples f keeps, of the stacks sel keeps, cut as sel cuts them.
func (q *Querier) mergeProfile(ctx context.Context, typeID string, series []uint32, from, to int64, f sampleFilter, sel stackSelection) (*googlev1.Profile, error) {
	out, err := q.mergePprof(ctx, typeID, series, from, to, f, sel)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := out.WriteUncompressed(&buf); err != nil {
		return nil, connect.NewError(connect.CodeInternal, fmt.Errorf("encode pprof: %w", err))
	}
	var gp googlev1.Profile
	if err := gp.UnmarshalVT(buf.Bytes()); err != nil {
		return nil, connect.NewError(connect.CodeInternal, fmt.Errorf("re-decode pprof: %w", err))
	}
	return &gp, nil
}

// mergePprof is mergeProfile as a google/pprof profile.
func (q *Querier) mergePprof(ctx context.Context, typeID string, series []uint32, from, to int64, f sampleFilter, sel stackSelection) (*profile.Profile, error) {
	pt, _ := model.SplitProfileType(typeID)
	sums := make(map[uint32]int64)
	var order []uint32
	snap := q.db.Snapshot()
	defer snap.Close()
	var onCallSite *callSiteMatcher
	if sel.pgo == nil && sel.byCallSite() { // go_pgo wins over a call site (recording 86)
		onCallSite = newCallSiteMatcher(sel.callSite, snap.View())
	}
	if err := snap.ScanContext(ctx, series, from, to, false, func(p *storage.Profile) error {
		f.each(p, func(s uint32, v int64) {
			if onCallSite != nil && !onCallSite.keeps(s) {
				return
			}
			if _, ok := sums[s]; !ok {
				order = append(order, s)
			}
			sums[s] = storage.SaturatingAdd(sums[s], v)
		})
		return nil
	}); err != nil {
		return nil, scanError(err)
	}
	out := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: pt.SampleType, Unit: pt.SampleUnit}},
		PeriodType: &profile.ValueType{Type: pt.PeriodType, Unit: pt.PeriodUnit},
		// As Pyroscope v2 answers (recording 27): the profile is dated at
		// the end of the range, with no duration, a period of 1e9 and its
		// one sample type as the default.
		TimeNanos:         to - to%int64(time.Millisecond),
		Period:            1e9,
		DefaultSampleType: pt.SampleType,
	}
	b := newPprofBuilder(out, snap.View())
	for _, s := range order {
		v := sums[s]
		if v == 0 {
			continue
		}
		out.Sample = append(out.Sample, &profile.Sample{Value: []int64{v}, Location: b.stack(s)})
	}
	if sel.pgo != nil {
		// Go PGO cuts pprof answers only (83–86); flamegraphs and trees
		// are not cut (87).
		return gopgo.Cut(out, gopgo.Options{KeepLocations: int(sel.pgo.KeepLocations), AggregateCallees: sel.pgo.AggregateCallees})
	}
	return out, nil
}

// pprofBuilder adds the locations, functions and mappings of stored stacks
// to a pprof, each once. Frames stored as inlined into their caller are
// lines of one location again, innermost first, as they were sent.
type pprofBuilder struct {
	out      *profile.Profile
	view     *storage.View
	locs     map[string]*profile.Location
	fns      map[[2]string]*profile.Function
	mappings map[[2]string]*profile.Mapping
	key      []byte
	frames   []uint32
}

func newPprofBuilder(out *profile.Profile, v *storage.View) *pprofBuilder {
	return &pprofBuilder{out: out, view: v, locs: make(map[string]*profile.Location),
		fns: make(map[[2]string]*profile.Function), mappings: make(map[[2]string]*profile.Mapping)}
}

// stack returns the locations of stack s, leaf first.
func (b *pprofBuilder) stack(s uint32) []*profile.Location {
	var out []*profile.Location
	for id := s; id != 0; {
		b.frames = b.frames[:0]
		for {
			b.frames = append(b.frames, id)
			inlined := b.view.FrameInlined(id)
			id = b.view.Parent(id)
			if !inlined || id == 0 {
				break
			}
		}
		out = append(out, b.location(b.frames))
	}
	return out
}

// location returns the location whose lines are the leaf frames of the
// given stack ids, innermost first.
func (b *pprofBuilder) location(ids []uint32) *profile.Location {
	b.key = b.key[:0]
	for _, id := range ids {
		file, line := b.view.FrameFile(id)
		bin, build := b.view.FrameMapping(id)
		b.key = binary.AppendUvarint(b.key, uint64(b.view.FrameID(id)))
		b.key = binary.AppendVarint(b.key, line)
		for _, s := range []string{file, bin, build} {
			b.key = binary.AppendUvarint(b.key, uint64(len(s)))
			b.key = append(b.key, s...)
		}
	}
	if loc := b.locs[string(b.key)]; loc != nil {
		return loc
	}
	loc := &profile.Location{ID: uint64(len(b.out.Location) + 1)}
	for _, id := range ids {
		name := b.view.FrameName(id)
		file, line := b.view.FrameFile(id)
		fn := b.fns[[2]string{name, file}]
		if fn == nil {
			fn = &profile.Function{ID: uint64(len(b.out.Function) + 1), Name: name, SystemName: name, Filename: file, StartLine: b.view.FrameStartLine(id)}
			b.out.Function = append(b.out.Function, fn)
			b.fns[[2]string{name, file}] = fn
		}
		loc.Line = append(loc.Line, profile.Line{Function: fn, Line: line})
	}
	if bin, build := b.view.FrameMapping(ids[0]); bin != "" || build != "" {
		m := b.mappings[[2]string{bin, build}]
		if m == nil {
			m = &profile.Mapping{ID: uint64(len(b.out.Mapping) + 1), File: bin, BuildID: build, HasFunctions: true}
			b.out.Mapping = append(b.out.Mapping, m)
			b.mappings[[2]string{bin, build}] = m
		}
		loc.Mapping = m
	}
	b.out.Location = append(b.out.Location, loc)
	b.locs[string(b.key)] = loc
	return loc
}
