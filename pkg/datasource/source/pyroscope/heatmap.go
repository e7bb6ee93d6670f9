// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package pyroscope

import (
	"context"
	"time"

	"connectrpc.com/connect"
	querierv1 "github.com/grafana/pyroscope/api/gen/proto/go/querier/v1"
	typesv1 "github.com/grafana/pyroscope/api/gen/proto/go/types/v1"

	"github.com/emberscope/emberscope/pkg/datasource/source"
	"github.com/emberscope/emberscope/pkg/profile/model"
)

// Heatmap asks the server how the totals of the selection's individual
// profiles (or, with r.Spans, of its single spans) are distributed, per
// step: the client is a source.Heatmapper. With r.Exemplars each slot
// carries the server's exemplars: profile ids, or span and trace ids.
var _ source.Heatmapper = (*Client)(nil)

func (c *Client) Heatmap(ctx context.Context, r source.HeatmapRequest) ([]source.HeatmapSlot, error) {
	start, end := rangeMillis(r.Range)
	req := &querierv1.SelectHeatmapRequest{
		ProfileTypeID: r.ProfileTypeID,
		LabelSelector: selectorOrAll(r.LabelSelector),
		Start:         start,
		End:           end,
		Step:          r.Step.Seconds(),
		QueryType:     querierv1.HeatmapQueryType_HEATMAP_QUERY_TYPE_INDIVIDUAL,
	}
	if r.Spans {
		req.QueryType = querierv1.HeatmapQueryType_HEATMAP_QUERY_TYPE_SPAN
	}
	if r.Exemplars {
		// Pyroscope pairs each heatmap type with its own kind of exemplar.
		req.ExemplarType = typesv1.ExemplarType_EXEMPLAR_TYPE_INDIVIDUAL
		if r.Spans {
			req.ExemplarType = typesv1.ExemplarType_EXEMPLAR_TYPE_SPAN
		}
	}
	resp, err := c.querier.SelectHeatmap(ctx, connect.NewRequest(req))
	if err != nil {
		return nil, c.wrap("select heatmap", err)
	}
	var out []source.HeatmapSlot
	for _, s := range resp.Msg.Series {
		for _, sl := range s.Slots {
			out = append(out, source.HeatmapSlot{
				Time:      time.UnixMilli(sl.Timestamp).UTC(),
				YMin:      sl.YMin,
				Counts:    sl.Counts,
				Exemplars: exemplars(sl.Exemplars),
			})
		}
	}
	return out, nil
}

// exemplars converts the API's exemplars; nil for none.
func exemplars(in []*typesv1.Exemplar) []source.Exemplar {
	if len(in) == 0 {
		return nil
	}
	out := make([]source.Exemplar, 0, len(in))
	for _, e := range in {
		ex := source.Exemplar{
			Time:      time.UnixMilli(e.Timestamp).UTC(),
			ProfileID: e.ProfileId,
			SpanID:    e.SpanId,
			TraceID:   e.TraceId,
			Value:     float64(e.Value),
		}
		if len(e.Labels) > 0 {
			ex.Labels = make(model.Labels, 0, len(e.Labels))
			for _, l := range e.Labels {
				ex.Labels = append(ex.Labels, model.Label{Name: l.Name, Value: l.Value})
			}
		}
		out = append(out, ex)
	}
	return out
}
