// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package dataframes

import (
	"fmt"
	"time"

	"github.com/grafana/grafana-plugin-sdk-go/data"
)

// FrameTypeHeatmapCells is Grafana's frame type for heatmap cells: one row per
// cell with its x, its y range and its count.
const FrameTypeHeatmapCells data.FrameType = "heatmap-cells"

// MaxHistogramCells bounds the cells of one histogram frame.
const MaxHistogramCells = 1 << 22

// ProfileTotal is the total value of one profile and when it was taken.
type ProfileTotal struct {
	Time  time.Time
	Total int64
}

// HistogramOptions shapes the cells of Histogram.
type HistogramOptions struct {
	// Step is the width of a time bucket; it must be positive.
	Step time.Duration
	// Buckets is the most value buckets; it must be positive.
	Buckets int
	// Unit is the profile type's sample unit (see UnitFor).
	Unit string
}

// Histogram returns the distribution of per-profile totals over time as
// Grafana heatmap cells (frame type "heatmap-cells"), with the fields
//
//	xMax  time   the end of the cell's time bucket
//	yMin  int64  the smallest total in the cell's value bucket
//	yMax  int64  the end of the value bucket (exclusive)
//	count int64  the number of profiles in the cell
//
// Bucket boundaries:
//   - Time buckets are Step wide and aligned to multiples of Step since the
//     Unix epoch, so the same profiles always fall in the same cells whatever
//     the query range: a profile at t falls in [k·Step, (k+1)·Step) with
//     k = floor(t/Step), and its cell's xMax is (k+1)·Step.
//   - Value buckets are equal integer ranges from the smallest total seen, min,
//     of width w = ceil((max-min+1)/Buckets) (at least 1): bucket i holds
//     totals in [min+i·w, min+(i+1)·w), which are its yMin and yMax. Every
//     total falls in exactly one bucket, and there are at most Buckets of them.
//
// The grid is dense, as Grafana's heatmap expects: every time bucket from the
// first profile's to the last one's, each with every value bucket, counts of
// zero included, ordered by time and then by value. No profiles give a frame
// with the fields and no rows. It fails when Step or Buckets is not positive
// or when the grid would exceed MaxHistogramCells.
func Histogram(points []ProfileTotal, opt HistogramOptions) (*data.Frame, error) {
	if opt.Step <= 0 {
		return nil, fmt.Errorf("histogram: step must be positive, got %s", opt.Step)
	}
	if opt.Buckets <= 0 {
		return nil, fmt.Errorf("histogram: bucket count must be positive, got %d", opt.Buckets)
	}
	var xs []time.Time
	var yMin, yMax, counts []int64
	if len(points) > 0 {
		step := int64(opt.Step)
		bucketOf := func(t time.Time) int64 { return floorDiv(t.UnixNano(), step) }
		firstX, lastX := bucketOf(points[0].Time), bucketOf(points[0].Time)
		minV, maxV := points[0].Total, points[0].Total
		for _, p := range points[1:] {
			x := bucketOf(p.Time)
			firstX, lastX = min(firstX, x), max(lastX, x)
			minV, maxV = min(minV, p.Total), max(maxV, p.Total)
		}
		nb := int64(opt.Buckets)
		width := max((maxV-minV+1+nb-1)/nb, 1)
		ny := (maxV-minV)/width + 1
		nx := lastX - firstX + 1
		if nx > MaxHistogramCells/ny {
			return nil, fmt.Errorf("histogram: %d time buckets of %s times %d value buckets exceed %d cells; use a larger step", nx, opt.Step, ny, MaxHistogramCells)
		}
		grid := make([]int64, nx*ny)
		for _, p := range points {
			grid[(bucketOf(p.Time)-firstX)*ny+(p.Total-minV)/width]++
		}
		n := int(nx * ny)
		xs, yMin, yMax, counts = make([]time.Time, n), make([]int64, n), make([]int64, n), grid
		for i := range n {
			x, y := int64(i)/ny, int64(i)%ny
			xs[i] = time.Unix(0, (firstX+x+1)*step).UTC()
			yMin[i] = minV + y*width
			yMax[i] = yMin[i] + width
		}
	} else {
		xs, yMin, yMax, counts = []time.Time{}, []int64{}, []int64{}, []int64{}
	}
	f := data.NewFrame("histogram",
		data.NewField("xMax", nil, xs),
		withUnit(data.NewField("yMin", nil, yMin), opt.Unit),
		withUnit(data.NewField("yMax", nil, yMax), opt.Unit),
		data.NewField("count", nil, counts),
	)
	f.Meta = &data.FrameMeta{Type: FrameTypeHeatmapCells}
	return f, nil
}

// floorDiv divides rounding toward negative infinity.
func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}
