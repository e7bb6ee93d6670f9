// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package pyroscope

import (
	"context"
	"time"

	"connectrpc.com/connect"
	querierv1 "github.com/grafana/pyroscope/api/gen/proto/go/querier/v1"

	"github.com/emberscope/emberscope/pkg/source"
)

// Heatmap asks the server how the totals of the selection's individual
// profiles are distributed, per step: the client is a source.Heatmapper.
var _ source.Heatmapper = (*Client)(nil)

func (c *Client) Heatmap(ctx context.Context, sel source.Selection, step time.Duration) ([]source.HeatmapSlot, error) {
	start, end := rangeMillis(sel.Range)
	resp, err := c.querier.SelectHeatmap(ctx, connect.NewRequest(&querierv1.SelectHeatmapRequest{
		ProfileTypeID: sel.ProfileTypeID,
		LabelSelector: selectorOrAll(sel.LabelSelector),
		Start:         start,
		End:           end,
		Step:          step.Seconds(),
		QueryType:     querierv1.HeatmapQueryType_HEATMAP_QUERY_TYPE_INDIVIDUAL,
	}))
	if err != nil {
		return nil, c.wrap("select heatmap", err)
	}
	var out []source.HeatmapSlot
	for _, s := range resp.Msg.Series {
		for _, sl := range s.Slots {
			out = append(out, source.HeatmapSlot{Time: time.UnixMilli(sl.Timestamp).UTC(), YMin: sl.YMin, Counts: sl.Counts})
		}
	}
	return out, nil
}
