// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package dataframes

import (
	"testing"
	"time"

	"github.com/grafana/grafana-plugin-sdk-go/data"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/pkg/datasource/source"
	"github.com/emberscope/emberscope/pkg/profile/model"
)

// TestWithStepWindows: each point carries the start and end of its step as
// time fields beside the value field it belongs to.
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
	assert.Equal(t, data.FieldTypeTime, start.Type(), "a time field: no display processing turns it into a formatted number")
	assert.Equal(t, data.FieldTypeTime, end.Type())
	ms := func(f *data.Field, i int) int64 { return f.At(i).(time.Time).UnixMilli() }
	assert.Equal(t, []int64{1796109540001, 1796109600001}, []int64{ms(start, 0), ms(start, 1)})
	assert.Equal(t, []int64{1796109600000, 1796109660000}, []int64{ms(end, 0), ms(end, 1)})
}
