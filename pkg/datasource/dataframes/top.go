// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package dataframes

import (
	"github.com/grafana/grafana-plugin-sdk-go/data"

	"github.com/emberscope/emberscope/pkg/profile/flame"
)

// TopTable returns the rows of flame.TopTable as a table frame with the
// fields symbol (string), self and total (int64, both in unit; see UnitFor),
// in the order given.
func TopTable(rows []flame.TopRow, unit string) *data.Frame {
	symbol := make([]string, len(rows))
	self := make([]int64, len(rows))
	total := make([]int64, len(rows))
	for i, r := range rows {
		symbol[i], self[i], total[i] = r.Name, r.Self, r.Total
	}
	f := data.NewFrame("topTable",
		data.NewField("symbol", nil, symbol),
		withUnit(data.NewField("self", nil, self), unit),
		withUnit(data.NewField("total", nil, total), unit),
	)
	f.Meta = &data.FrameMeta{PreferredVisualization: data.VisTypeTable}
	return f
}
