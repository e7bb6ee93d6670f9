// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package labelframes

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/emberscope/emberscope/pkg/datasource/source"
	"github.com/emberscope/emberscope/pkg/profile/model"
)

// tupleKey is the map key of a tuple of label values ("" for a missing label).
func tupleKey(values []string) string { return model.TupleKey(values...) }

// wholeRange returns the step that makes one point cover the selection's range.
func wholeRange(r source.TimeRange) (time.Duration, error) {
	d := r.To.Sub(r.From)
	if d <= 0 {
		return 0, fmt.Errorf("empty time range: from %s to %s", r.From.Format(time.RFC3339), r.To.Format(time.RFC3339))
	}
	return d, nil
}

// groupTotals asks src for the series of sel grouped by labels, one point per
// series over the whole range, and returns each tuple's total keyed by
// tupleKey; a label a series lacks counts as "".
func groupTotals(ctx context.Context, src source.Source, sel source.Selection, labels []string) (map[string]int64, error) {
	step, err := wholeRange(sel.Range)
	if err != nil {
		return nil, err
	}
	series, err := src.Series(ctx, source.SeriesRequest{Selection: sel, GroupBy: labels, Step: step})
	if err != nil {
		return nil, fmt.Errorf("totals by %s: %w", strings.Join(labels, ", "), err)
	}
	sums := make(map[string]float64, len(series))
	values := make([]string, len(labels))
	for _, s := range series {
		for i, l := range labels {
			values[i] = s.Labels.Get(l)
		}
		k := tupleKey(values)
		for _, p := range s.Points {
			sums[k] += p.Value
		}
	}
	out := make(map[string]int64, len(sums))
	for k, v := range sums {
		out[k] = int64(math.Round(v))
	}
	return out, nil
}
