// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"context"
	"fmt"

	"github.com/grafana/grafana-plugin-sdk-go/data"

	"github.com/emberscope/emberscope/pkg/datasource/dataframes"
	"github.com/emberscope/emberscope/pkg/datasource/labelframes"
)

// queryLabels answers a "labels" query: for each label of the query's
// group-by (or frames_from_label), how much each of its values contributes
// to the selection's total, largest first, the values beyond limit summed
// into "other" and the profiles without the label in a row of their own.
func (d *Datasource) queryLabels(ctx context.Context, r *request) (data.Frames, error) {
	names := r.Query.GroupBy
	if len(names) == 0 {
		names, _ = r.Query.VirtualLabels()
	}
	if len(names) == 0 {
		return nil, userErrorf("a labels query needs a label: set groupBy, or write the query as `... by (label)`")
	}
	unit := dataframes.UnitOfProfileType(r.Query.ProfileTypeID)
	out := make(data.Frames, 0, len(names))
	for _, name := range names {
		rows, err := labelframes.Contribution(ctx, d.src, r.selection(), name, r.Limit)
		if err != nil {
			return nil, err
		}
		if len(rows) == 0 {
			if err := d.checkProfileType(ctx, r); err != nil {
				return nil, err
			}
		}
		vt := make([]dataframes.ValueTotal, 0, len(rows))
		folded := false
		for _, row := range rows {
			vt = append(vt, dataframes.ValueTotal{Value: row.Value, Total: row.Total})
			folded = folded || row.Other
		}
		f, err := dataframes.LabelContribution(name, vt, unit)
		if err != nil {
			return nil, fmt.Errorf("label %q: %w", name, err)
		}
		if folded {
			f.AppendNotices(data.Notice{
				Severity: data.NoticeSeverityInfo,
				Text:     fmt.Sprintf("Showing the %d largest values of %s; the rest are summed into %q. Raise the query's limit to see more.", r.Limit, name, otherName),
			})
		}
		out = append(out, f)
	}
	return out, nil
}
