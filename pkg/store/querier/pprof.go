// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package querier

import (
	"bytes"
	"context"
	"fmt"
	"time"

	"connectrpc.com/connect"
	"github.com/google/pprof/profile"
	googlev1 "github.com/grafana/pyroscope/api/gen/proto/go/google/v1"
	querierv1 "github.com/grafana/pyroscope/api/gen/proto/go/querier/v1"

	"github.com/emberscope/emberscope/pkg/model"
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
	series, from, to, err := q.selection(m.ProfileTypeID, m.LabelSelector, m.Start, m.End)
	if err != nil {
		return nil, err
	}
	p, err := q.mergeProfile(ctx, m.ProfileTypeID, series, from, to)
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(p), nil
}

// mergeProfile builds a pprof with one sample per distinct stack of the
// selection; each frame is a location with one line of its own function.
func (q *Querier) mergeProfile(ctx context.Context, typeID string, series []uint32, from, to int64) (*googlev1.Profile, error) {
	pt, _ := model.SplitProfileType(typeID)
	sums := make(map[uint32]int64)
	var order []uint32
	snap := q.db.Snapshot()
	defer snap.Close()
	if err := snap.ScanContext(ctx, series, from, to, false, func(p *storage.Profile) error {
		for i, s := range p.Stacks {
			if _, ok := sums[s]; !ok {
				order = append(order, s)
			}
			sums[s] = storage.SaturatingAdd(sums[s], p.Values[i])
		}
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
	view := snap.View()
	locs := make(map[uint32]*profile.Location) // by frame string id
	for _, s := range order {
		v := sums[s]
		if v == 0 {
			continue
		}
		sample := &profile.Sample{Value: []int64{v}}
		for id := s; id != 0; id = view.Parent(id) {
			f := view.FrameID(id)
			loc := locs[f]
			if loc == nil {
				fn := &profile.Function{ID: uint64(len(out.Function) + 1), Name: view.String(f)}
				loc = &profile.Location{ID: uint64(len(out.Location) + 1), Line: []profile.Line{{Function: fn}}}
				out.Function = append(out.Function, fn)
				out.Location = append(out.Location, loc)
				locs[f] = loc
			}
			sample.Location = append(sample.Location, loc)
		}
		out.Sample = append(out.Sample, sample)
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
