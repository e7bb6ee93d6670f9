// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package dataframes

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/grafana/grafana-plugin-sdk-go/data"
)

// ValueTotal is the total of the profiles having one value of a label.
type ValueTotal struct {
	Value string
	Total int64
}

// LabelContribution returns how much each value of label contributes: a
// frame with a string field named after the label (the values), "total"
// (int64, in unit; see UnitFor) and "share" (float64, the total's share of the
// sum of all totals, 0..1, unit percentunit). Rows are sorted by total,
// largest first, then by value. When every total is 0 each share is 0.
//
// It fails when label is empty, when a value appears twice, or when a total is
// negative, naming the offending row.
func LabelContribution(label string, rows []ValueTotal, unit string) (*data.Frame, error) {
	if label == "" {
		return nil, fmt.Errorf("label contribution: empty label name")
	}
	seen := make(map[string]int, len(rows))
	var sum int64
	for i, r := range rows {
		if r.Total < 0 {
			return nil, fmt.Errorf("label contribution: %s=%q (row %d) has a negative total %d", label, r.Value, i, r.Total)
		}
		if j, dup := seen[r.Value]; dup {
			return nil, fmt.Errorf("label contribution: %s=%q appears twice (rows %d and %d)", label, r.Value, j, i)
		}
		seen[r.Value] = i
		sum += r.Total
	}
	sorted := slices.Clone(rows)
	slices.SortFunc(sorted, func(a, b ValueTotal) int {
		if c := cmp.Compare(b.Total, a.Total); c != 0 {
			return c
		}
		return cmp.Compare(a.Value, b.Value)
	})
	values := make([]string, len(sorted))
	totals := make([]int64, len(sorted))
	shares := make([]float64, len(sorted))
	for i, r := range sorted {
		values[i], totals[i] = r.Value, r.Total
		if sum > 0 {
			shares[i] = float64(r.Total) / float64(sum)
		}
	}
	share := data.NewField("share", nil, shares)
	share.SetConfig((&data.FieldConfig{Unit: "percentunit"}).SetMin(0).SetMax(1))
	f := data.NewFrame("labels",
		data.NewField(label, nil, values),
		withUnit(data.NewField("total", nil, totals), unit),
		share,
	)
	f.Meta = &data.FrameMeta{PreferredVisualization: data.VisTypeTable}
	return f, nil
}
