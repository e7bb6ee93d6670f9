// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package dataframes

import (
	"testing"
	"time"

	"github.com/grafana/grafana-plugin-sdk-go/data"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type cell struct {
	X          time.Time
	YMin, YMax int64
	Count      int64
}

func cells(t *testing.T, f *data.Frame) []cell {
	t.Helper()
	x := mustField(t, f, "xMax")
	out := make([]cell, x.Len())
	yMin, yMax, count := int64s(t, f, "yMin"), int64s(t, f, "yMax"), int64s(t, f, "count")
	for i := range out {
		out[i] = cell{x.At(i).(time.Time), yMin[i], yMax[i], count[i]}
	}
	return out
}

func TestHistogramCells(t *testing.T) {
	t0 := time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC)
	points := []ProfileTotal{
		{t0.Add(1 * time.Second), 100},
		{t0.Add(5 * time.Second), 150},
		{t0.Add(9 * time.Second), 199},
		// nothing in [10s, 20s): a column of zeros
		{t0.Add(20 * time.Second), 110}, // exactly on a boundary: the later bucket
		{t0.Add(29 * time.Second), 160},
	}
	f, err := Histogram(points, HistogramOptions{Step: 10 * time.Second, Buckets: 2, Unit: "nanoseconds"})
	require.NoError(t, err)
	require.Equal(t, FrameTypeHeatmapCells, f.Meta.Type)
	// min 100, max 199: width ceil(100/2) = 50 → [100,150), [150,200)
	x1, x2, x3 := t0.Add(10*time.Second), t0.Add(20*time.Second), t0.Add(30*time.Second)
	assert.Equal(t, []cell{
		{x1, 100, 150, 1}, {x1, 150, 200, 2},
		{x2, 100, 150, 0}, {x2, 150, 200, 0},
		{x3, 100, 150, 1}, {x3, 150, 200, 1},
	}, cells(t, f))
	assert.Equal(t, "ns", mustField(t, f, "yMin").Config.Unit)
	checkGolden(t, "histogram", f)
}

func TestHistogramCountsEveryProfileOnce(t *testing.T) {
	t0 := time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC)
	var points []ProfileTotal
	for i := range 1000 {
		points = append(points, ProfileTotal{t0.Add(time.Duration(i*7) * time.Second), int64(i*i%9973 + 1)})
	}
	f, err := Histogram(points, HistogramOptions{Step: time.Minute, Buckets: 7})
	require.NoError(t, err)
	var sum int64
	for _, c := range cells(t, f) {
		sum += c.Count
		assert.Greater(t, c.YMax, c.YMin)
	}
	assert.Equal(t, int64(1000), sum)
}

func TestHistogramSameTotalsOneBucket(t *testing.T) {
	t0 := time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC)
	f, err := Histogram([]ProfileTotal{{t0, 5}, {t0, 5}}, HistogramOptions{Step: time.Minute, Buckets: 10})
	require.NoError(t, err)
	assert.Equal(t, []cell{{t0.Add(time.Minute), 5, 6, 2}}, cells(t, f))
}

func TestHistogramEmptyAndErrors(t *testing.T) {
	f, err := Histogram(nil, HistogramOptions{Step: time.Minute, Buckets: 10})
	require.NoError(t, err)
	assert.Equal(t, 0, mustField(t, f, "count").Len())

	_, err = Histogram(nil, HistogramOptions{Step: 0, Buckets: 10})
	assert.EqualError(t, err, "histogram: step must be positive, got 0s")
	_, err = Histogram(nil, HistogramOptions{Step: time.Second, Buckets: 0})
	assert.EqualError(t, err, "histogram: bucket count must be positive, got 0")
	t0 := time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC)
	_, err = Histogram([]ProfileTotal{{t0, 1}, {t0.Add(24 * time.Hour), 1000}},
		HistogramOptions{Step: time.Millisecond, Buckets: 100})
	assert.ErrorContains(t, err, "use a larger step")
}
