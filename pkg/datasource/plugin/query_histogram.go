// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"context"
	"errors"
	"fmt"

	"github.com/grafana/grafana-plugin-sdk-go/data"

	"github.com/emberscope/emberscope/pkg/datasource/dataframes"
	"github.com/emberscope/emberscope/pkg/datasource/source"
	"github.com/emberscope/emberscope/pkg/profile/model"
)

// histogramBuckets is the number of value buckets of a histogram.
const histogramBuckets = 20

// queryHistogram answers a "histogram" query: how the totals of the
// selection's profiles are distributed over the range, as heatmap cells.
// Servers with a heatmap (Pyroscope, the embedded store) count individual
// profiles; for the others each step's total counts as one value, and a
// notice says so.
func (d *Datasource) queryHistogram(ctx context.Context, r *request) (data.Frames, error) {
	points, perProfile, exemplars, err := d.histogramPoints(ctx, r)
	if err != nil {
		return nil, err
	}
	if len(points) == 0 {
		if err := d.checkProfileType(ctx, r); err != nil {
			return nil, err
		}
	}
	f, err := dataframes.Histogram(points, dataframes.HistogramOptions{Step: r.Step, Buckets: histogramBuckets, Unit: dataframes.UnitOfProfileType(r.Query.ProfileTypeID)})
	if err != nil {
		return nil, userErrorf("histogram: %v; narrow the time range or raise the step", err)
	}
	if !perProfile {
		f.AppendNotices(data.Notice{
			Severity: data.NoticeSeverityInfo,
			Text:     "This profile server has no heatmap API: each cell counts steps of the series, not individual profiles.",
		})
	}
	out := data.Frames{f}
	if ef := d.heatmapExemplars(ctx, r, exemplars); ef != nil {
		out = append(out, ef)
	}
	return out, nil
}

// histogramPoints returns the values to bucket, whether each is one profile
// (or one span), and the heatmap's slots for their exemplars.
func (d *Datasource) histogramPoints(ctx context.Context, r *request) ([]dataframes.ProfileTotal, bool, []source.HeatmapSlot, error) {
	slots, err := source.Heatmap(ctx, d.src, source.HeatmapRequest{Selection: r.selection(), Step: r.Step, Spans: r.Spans.Spans, Exemplars: r.Spans.Exemplars})
	switch {
	case err == nil:
		var points []dataframes.ProfileTotal
		for _, s := range slots {
			for i, c := range s.Counts {
				if i >= len(s.YMin) {
					return nil, false, nil, fmt.Errorf("heatmap slot at %s has %d counts for %d ranges", s.Time, len(s.Counts), len(s.YMin))
				}
				for range c {
					points = append(points, dataframes.ProfileTotal{Time: s.Time, Total: int64(s.YMin[i])})
				}
			}
		}
		return points, true, slots, nil
	case r.Spans.Spans && (errors.Is(err, source.ErrNoHeatmap) || model.KindOf(err) == model.KindNotFound || model.KindOf(err) == model.KindUnimplemented):
		// A series cannot stand in for the spans.
		return nil, false, nil, userErrorf("histogram: heatmapType span needs a profile server with a span heatmap (Pyroscope or the embedded store): %v", err)
	case errors.Is(err, source.ErrNoHeatmap), model.KindOf(err) == model.KindNotFound, model.KindOf(err) == model.KindUnimplemented:
		// No heatmap API on this server: fall back to the series.
	default:
		return nil, false, nil, err
	}
	series, err := d.src.Series(ctx, source.SeriesRequest{Selection: r.selection(), GroupBy: r.Query.GroupBy, Step: r.Step})
	if err != nil {
		return nil, false, nil, err
	}
	var points []dataframes.ProfileTotal
	for _, s := range series {
		for _, p := range s.Points {
			points = append(points, dataframes.ProfileTotal{Time: p.Time, Total: int64(p.Value)})
		}
	}
	return points, false, nil, nil
}
