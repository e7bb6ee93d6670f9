// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package frames

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/pkg/model"
	"github.com/emberscope/emberscope/pkg/source"
)

// TestWithStepWindows: each point carries the start and end of its step in
// Unix ms, as text beside the value field it belongs to.
func TestWithStepWindows(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 7, 20, 0, 0, time.UTC)
	in := []source.Series{{
		Labels: model.Labels{{Name: "route", Value: "/car"}},
		Points: []source.Point{{Time: t0, Value: 1}, {Time: t0.Add(time.Minute), Value: 2}},
	}}
	f := WithStepWindows(Series(in, cpuType, "nanoseconds"), time.Minute)[0]
	require.Len(t, f.Fields, 4)
	assert.Equal(t, cpuType, f.Fields[1].Name, "the value field stays second")
	start, end := f.Fields[2], f.Fields[3]
	assert.Equal(t, FieldStepStart, start.Name)
	assert.Equal(t, FieldStepEnd, end.Name)
	// A point sums the profiles of (t-step, t], as Pyroscope's series do.
	assert.Equal(t, []string{"1796109540001", "1796109600001"}, []string{start.At(0).(string), start.At(1).(string)})
	assert.Equal(t, []string{"1796109600000", "1796109660000"}, []string{end.At(0).(string), end.At(1).(string)})
}
