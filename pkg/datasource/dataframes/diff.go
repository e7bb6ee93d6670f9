// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package dataframes

import (
	"github.com/grafana/grafana-plugin-sdk-go/data"

	"github.com/emberscope/emberscope/pkg/profile/flame"
)

// DiffFlamegraph returns a diff as a nested-set frame in the shape
// @grafana/flamegraph reads (FlameGraphDataContainer): the fields of
// Flamegraph, where
//
//	value      int64 the node's total in the query's own (left, baseline) tree
//	self       int64 the node's self in the baseline tree
//	valueRight int64 the node's total in the comparison (right) tree
//	selfRight  int64 the node's self in the comparison tree
//
// Grafana draws each bar value + valueRight wide and its tooltip shows the
// baseline as the bar minus valueRight, that is value. Rows follow the union
// tree in flame.Walk order; a node present on one side only has zeros on the
// other. A nil diff gives a frame with the fields and no rows.
func DiffFlamegraph(d *flame.Diff, unit string) *data.Frame {
	var t *flame.Tree
	if d != nil {
		t = d.Tree()
	}
	fb := newFlameBuilder(t)
	n := len(fb.order)
	value, self := make([]int64, n), make([]int64, n)
	valueRight, selfRight := make([]int64, n), make([]int64, n)
	for i, id := range fb.order {
		value[i], self[i] = d.Left(id)
		valueRight[i], selfRight[i] = d.Right(id)
	}
	fields := data.Fields{
		data.NewField(FieldLevel, nil, fb.level),
		withUnit(data.NewField(FieldValue, nil, value), unit),
		withUnit(data.NewField(FieldSelf, nil, self), unit),
		fb.labelField(),
		withUnit(data.NewField(FieldValueRight, nil, valueRight), unit),
		withUnit(data.NewField(FieldSelfRight, nil, selfRight), unit),
	}
	fields = append(fields, fb.virtualFields()...)
	f := flameFrame(fields)
	if fb.cut {
		// as a flamegraph's: a zoom below the cut asks both sides again
		f.Meta.Custom = map[string]any{MetaTruncated: true}
	}
	return f
}
