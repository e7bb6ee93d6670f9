// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"context"
	"fmt"

	"github.com/grafana/grafana-plugin-sdk-go/data"

	"github.com/emberscope/emberscope/pkg/datasource/dataframes"
	"github.com/emberscope/emberscope/pkg/datasource/source"
)

// queryMetrics answers a "metrics" query: one series per value set of the
// query's group-by, at most limit of them, the rest summed into "other".
// Each frame carries its points' step windows (dataframes.WithStepWindows) for
// the data links that open a point's flamegraph.
func (d *Datasource) queryMetrics(ctx context.Context, r *request) (data.Frames, error) {
	series, err := d.src.Series(ctx, source.SeriesRequest{
		Selection: r.selection(),
		GroupBy:   r.Query.GroupBy,
		Step:      r.Step,
		Exemplars: r.Spans.Exemplars,
	})
	if err != nil {
		return nil, err
	}
	if len(series) == 0 {
		if err := d.checkProfileType(ctx, r); err != nil {
			return nil, err
		}
	}
	kept, folded := foldSeries(series, r.Limit, r.Query.GroupBy)
	out := data.Frames(dataframes.WithStepWindows(dataframes.Series(kept, r.Query.ProfileTypeID, dataframes.UnitOfProfileType(r.Query.ProfileTypeID)), r.Step))
	if folded > 0 && len(out) > 0 {
		out[0].AppendNotices(data.Notice{
			Severity: data.NoticeSeverityInfo,
			Text: fmt.Sprintf("Showing the %d largest of %d series; the other %d are summed into the series labelled %q. Raise the query's limit to see more.",
				r.Limit, len(series), folded, otherName),
		})
	}
	if r.Spans.Exemplars {
		out = append(out, d.seriesExemplars(ctx, r, kept)...)
	}
	return out, nil
}
