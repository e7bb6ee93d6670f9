// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package pyroscope

import (
	"context"
	"fmt"

	"connectrpc.com/connect"
	"github.com/google/pprof/profile"
	querierv1 "github.com/grafana/pyroscope/api/gen/proto/go/querier/v1"
	typesv1 "github.com/grafana/pyroscope/api/gen/proto/go/types/v1"

	"github.com/emberscope/emberscope/pkg/datasource/source"
	"github.com/emberscope/emberscope/pkg/profile/model"
)

// MergeProfile asks the server for the merged pprof profile of a selection,
// cut by the server's go_pgo stack trace selector when r.GoPGO is set.
func (c *Client) MergeProfile(ctx context.Context, r source.StacksRequest) (*profile.Profile, error) {
	start, end := rangeMillis(r.Range)
	req := &querierv1.SelectMergeProfileRequest{
		ProfileTypeID: r.ProfileTypeID,
		LabelSelector: selectorOrAll(r.LabelSelector),
		Start:         start,
		End:           end,

		StackTraceSelector: stackTraceSelector(r.CallSite),
	}
	if r.MaxNodes > 0 {
		req.MaxNodes = &r.MaxNodes
	}
	if r.GoPGO != nil {
		req.StackTraceSelector = &typesv1.StackTraceSelector{GoPgo: &typesv1.GoPGO{
			KeepLocations: uint32(r.GoPGO.KeepLocations), AggregateCallees: r.GoPGO.AggregateCallees,
		}}
	}
	//lint:ignore SA1019 Pyroscope v2.2.1 serves querier.v1 SelectMergeProfile, and the export needs the whole pprof
	resp, err := c.querier.SelectMergeProfile(ctx, connect.NewRequest(req))
	if err != nil {
		return nil, c.wrap("merge profile", err)
	}
	// google.v1.Profile is pprof's profile.proto: re-encode and let pprof parse it.
	raw, err := resp.Msg.MarshalVT()
	if err != nil {
		return nil, fmt.Errorf("encode merged profile: %w", err)
	}
	p, err := profile.ParseData(raw)
	if err != nil {
		return nil, &model.Error{Kind: model.KindServer, Msg: fmt.Sprintf("profile server at %s sent a profile that cannot be read: %v", c.url, err), Err: err}
	}
	return p, nil
}
