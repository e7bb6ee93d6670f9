// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package labelframes

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/emberscope/emberscope/pkg/datasource/source"
	"github.com/emberscope/emberscope/pkg/profile/flame"
	"github.com/emberscope/emberscope/pkg/profile/model"
)

// ValueTotal is one row of a label's contribution: a value, its total over
// the range and its share of the whole selection.
type ValueTotal struct {
	// Value is the label value; MissingName(label) for the samples without
	// the label and "other" for the values folded beyond the limit.
	Value string
	Total int64
	// Share is Total over the selection's total, in [0, 1].
	Share float64
	// Missing marks the row of the samples without the label.
	Missing bool
	// Other marks the row of the folded values.
	Other bool
}

// Contribution returns each value of label with its total and share of the
// whole selection, from one Series call grouped by label whose step is the
// whole range. Rows come largest first (ties by value); at most limit values
// get rows of their own (0 keeps all) and the rest fold into one "other" row
// after them; the samples without the label form their own row, last.
func Contribution(ctx context.Context, src source.Source, sel source.Selection, label string, limit int) ([]ValueTotal, error) {
	if strings.TrimSpace(label) == "" {
		return nil, errors.New("label contribution: empty label name")
	}
	byTuple, err := groupTotals(ctx, src, sel, []string{label})
	if err != nil {
		return nil, fmt.Errorf("label contribution: %w", err)
	}
	totals := make(map[string]int64, len(byTuple))
	for k, t := range byTuple {
		tuple, err := model.SplitKey(k)
		if err != nil || len(tuple) != 1 {
			return nil, fmt.Errorf("label contribution: bad tuple key %q", k)
		}
		totals[tuple[0]] += t
	}
	var whole int64
	values := make([]string, 0, len(totals))
	for v, t := range totals {
		whole += t
		if v != "" {
			values = append(values, v)
		}
	}
	ranked := rankByTotal(values, func(v string) int64 { return totals[v] })
	var folded []string
	if limit > 0 && len(ranked) > limit {
		ranked, folded = ranked[:limit], ranked[limit:]
	}
	share := func(t int64) float64 {
		if whole == 0 {
			return 0
		}
		return float64(t) / float64(whole)
	}
	rows := make([]ValueTotal, 0, len(ranked)+2)
	for _, v := range ranked {
		rows = append(rows, ValueTotal{Value: v, Total: totals[v], Share: share(totals[v])})
	}
	if len(folded) > 0 {
		var t int64
		for _, v := range folded {
			t += totals[v]
		}
		rows = append(rows, ValueTotal{Value: flame.OtherName, Total: t, Share: share(t), Other: true})
	}
	if t, ok := totals[""]; ok && t != 0 {
		rows = append(rows, ValueTotal{Value: MissingName(label), Total: t, Share: share(t), Missing: true})
	}
	return rows, nil
}
