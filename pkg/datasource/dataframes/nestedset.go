// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package dataframes

import "github.com/grafana/grafana-plugin-sdk-go/data"

// NestedSet returns rows given as columns (depth first, level 0 first) as a
// flamegraph frame of the shape Flamegraph writes: level, value and self in
// unit, the labels an enum (plain strings beyond MaxEnumNames names). It is
// for trees that are no flame.Tree, such as a sandwich's halves, whose
// values in recursion are not their self plus their children's.
func NestedSet(level, value, self []int64, labels []string, unit string) *data.Frame {
	slot := map[string]data.EnumItemIndex{}
	var text []string
	idx := make([]data.EnumItemIndex, len(labels))
	for i, l := range labels {
		s, ok := slot[l]
		if !ok {
			if len(text) == MaxEnumNames {
				text = nil
				break
			}
			s = data.EnumItemIndex(len(text))
			slot[l] = s
			text = append(text, l)
		}
		idx[i] = s
	}
	label := data.NewField(FieldLabel, nil, labels)
	if text != nil || len(labels) == 0 {
		label = enumField(FieldLabel, idx, text)
	}
	return flameFrame(data.Fields{
		data.NewField(FieldLevel, nil, level),
		withUnit(data.NewField(FieldValue, nil, value), unit),
		withUnit(data.NewField(FieldSelf, nil, self), unit),
		label,
	})
}
