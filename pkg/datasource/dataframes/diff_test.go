// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package dataframes

import (
	"testing"

	"github.com/grafana/grafana-plugin-sdk-go/data"
	"github.com/stretchr/testify/assert"

	"github.com/emberscope/emberscope/pkg/profile/flame"
	"github.com/emberscope/emberscope/pkg/profile/flame/flametest"
)

func TestDiffFlamegraph(t *testing.T) {
	right := flametest.Stacks("main;work 4", "io 1")
	f := DiffFlamegraph(flame.NewDiff(smallTree(), right), "nanoseconds")
	// value and self are the baseline's own (smallTree), as @grafana/flamegraph reads them
	assert.Equal(t, []row{
		{0, "total", 10, 0},
		{1, "gc", 1, 1},
		{1, "io", 0, 0},
		{1, "main", 9, 1},
		{2, "parse", 3, 3},
		{2, "work", 5, 2},
		{3, "hash", 3, 3},
	}, rows(t, f))
	assert.Equal(t, []int64{5, 0, 1, 4, 0, 4, 0}, int64s(t, f, FieldValueRight))
	assert.Equal(t, []int64{0, 0, 1, 0, 0, 4, 0}, int64s(t, f, FieldSelfRight))
	assert.Equal(t, "ns", mustField(t, f, FieldValueRight).Config.Unit)
	checkGolden(t, "diff_flamegraph", f)
}

// TestDiffFlamegraphWithItselfIsZeroChange: baseline (value) equals
// comparison (valueRight) on every row.
func TestDiffFlamegraphWithItselfIsZeroChange(t *testing.T) {
	tr := flametest.Random(10000, 5)
	f := DiffFlamegraph(flame.NewDiff(tr, tr), "count")
	value, right := int64s(t, f, FieldValue), int64s(t, f, FieldValueRight)
	self, selfRight := int64s(t, f, FieldSelf), int64s(t, f, FieldSelfRight)
	assert.Len(t, value, tr.Len())
	for i := range value {
		if value[i] != right[i] || self[i] != selfRight[i] {
			t.Fatalf("row %d: value %d valueRight %d self %d selfRight %d", i, value[i], right[i], self[i], selfRight[i])
		}
	}
}

func int64s(t *testing.T, f *data.Frame, name string) []int64 {
	t.Helper()
	field := mustField(t, f, name)
	out := make([]int64, field.Len())
	for i := range out {
		out[i] = field.At(i).(int64)
	}
	return out
}

// TestDiffFlamegraphSaysWhenCut: a diff cut at maxNodes is marked truncated
// as a flamegraph is, so a zoom below its "other" asks both sides again.
func TestDiffFlamegraphSaysWhenCut(t *testing.T) {
	right := flametest.Stacks("main;work 4", "io 1")
	cut := DiffFlamegraph(flame.NewDiff(smallTree(), right).Truncate(4), "nanoseconds")
	assert.Equal(t, map[string]any{MetaTruncated: true}, cut.Meta.Custom)
	assert.Nil(t, DiffFlamegraph(flame.NewDiff(smallTree(), right), "nanoseconds").Meta.Custom)
}
