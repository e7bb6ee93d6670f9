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

// Series asks the server for the summed values of a selection per step,
// one series per value set of r.GroupBy.
func (c *Client) Series(ctx context.Context, r source.SeriesRequest) ([]source.Series, error) {
	start, end := rangeMillis(r.Range)
	step := r.Step
	if step <= 0 {
		step = 15 * time.Second
	}
	req := &querierv1.SelectSeriesRequest{
		ProfileTypeID: r.ProfileTypeID,
		LabelSelector: selectorOrAll(r.LabelSelector),
		Start:         start,
		End:           end,
		GroupBy:       r.GroupBy,
		Step:          step.Seconds(),
	}
	if r.Exemplars {
		req.ExemplarType = typesv1.ExemplarType_EXEMPLAR_TYPE_INDIVIDUAL
	}
	resp, err := c.querier.SelectSeries(ctx, connect.NewRequest(req))
	if err != nil {
		return nil, c.wrap("select series", err)
	}
	out := make([]source.Series, 0, len(resp.Msg.Series))
	for _, s := range resp.Msg.Series {
		ser := source.Series{
			Labels: make(model.Labels, 0, len(s.Labels)),
			Points: make([]source.Point, 0, len(s.Points)),
		}
		for _, l := range s.Labels {
			ser.Labels = append(ser.Labels, model.Label{Name: l.Name, Value: l.Value})
		}
		for _, p := range s.Points {
			ser.Points = append(ser.Points, source.Point{Time: time.UnixMilli(p.Timestamp).UTC(), Value: p.Value, Exemplars: exemplars(p.Exemplars)})
		}
		out = append(out, ser)
	}
	return out, nil
}
