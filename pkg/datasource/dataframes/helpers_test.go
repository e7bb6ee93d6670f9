// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package dataframes

import (
	"testing"

	"github.com/grafana/grafana-plugin-sdk-go/data"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/pkg/profile/flame"
)

// smallTree is
//
//	total 10
//	├─ main 9 (self 1)
//	│  ├─ parse 3 (self 3)
//	│  └─ work 5 (self 2)
//	│     └─ hash 3 (self 3)
//	└─ gc 1 (self 1)
func smallTree() *flame.Tree {
	t := flame.New()
	t.InsertStackNames(1, "main")
	t.InsertStackNames(2, "main", "work")
	t.InsertStackNames(3, "main", "work", "hash")
	t.InsertStackNames(3, "main", "parse")
	t.InsertStackNames(1, "gc")
	return t
}

// row is one flamegraph frame row, read back for assertions.
type row struct {
	Level int64
	Label string
	Value int64
	Self  int64
}

// rows reads a flamegraph frame back into rows, resolving enum labels.
func rows(t *testing.T, f *data.Frame) []row {
	t.Helper()
	level := mustField(t, f, FieldLevel)
	value := mustField(t, f, FieldValue)
	self := mustField(t, f, FieldSelf)
	label := mustField(t, f, FieldLabel)
	out := make([]row, level.Len())
	for i := range out {
		out[i] = row{
			Level: level.At(i).(int64),
			Value: value.At(i).(int64),
			Self:  self.At(i).(int64),
			Label: labelAt(label, i),
		}
	}
	return out
}

func labelAt(f *data.Field, i int) string {
	if f.Type() == data.FieldTypeEnum {
		return f.Config.TypeConfig.Enum.Text[f.At(i).(data.EnumItemIndex)]
	}
	return f.At(i).(string)
}

func mustField(t *testing.T, f *data.Frame, name string) *data.Field {
	t.Helper()
	field, idx := f.FieldByName(name)
	require.GreaterOrEqual(t, idx, 0, "frame has no field %q", name)
	return field
}
