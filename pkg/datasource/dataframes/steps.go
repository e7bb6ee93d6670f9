// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package dataframes

import (
	"time"

	"github.com/grafana/grafana-plugin-sdk-go/data"
)

// Field names of a series frame's step windows. The frontend's data links
// reference them with Grafana's variable syntax
// (${__data.fields.stepStart.numeric}), since a data link cannot compute a
// point's step from its time.
const (
	FieldStepStart = "stepStart"
	FieldStepEnd   = "stepEnd"
)

// StepWindow is the span a series point at t sums: (t-step, t], as
// Pyroscope's SelectSeries (and so our store) files each profile into the
// point that ends its step; in the milliseconds a query range is given in,
// [t-step+1ms, t].
func StepWindow(t time.Time, step time.Duration) (from, to time.Time) {
	return t.Add(-step).Add(time.Millisecond), t
}

// WithStepWindows appends to every series frame (a "time" field first, as
// Series makes them) the fields stepStart and stepEnd: for each point, the
// start and end of its StepWindow, as time fields: Grafana's time-series
// panel draws only number fields, so they are not drawn as series, and a data
// link reads their Unix milliseconds as the display value's `numeric`, which
// no unit, decimals or value mapping of the panel changes (the display text of
// a text field holding the number is formatted as a number, "1.80 Tri").
// It returns frames.
func WithStepWindows(frames []*data.Frame, step time.Duration) []*data.Frame {
	for _, f := range frames {
		if len(f.Fields) == 0 || f.Fields[0].Type() != data.FieldTypeTime {
			continue
		}
		times := f.Fields[0]
		start := make([]time.Time, times.Len())
		end := make([]time.Time, times.Len())
		for i := range start {
			start[i], end[i] = StepWindow(times.At(i).(time.Time), step)
		}
		f.Fields = append(f.Fields, data.NewField(FieldStepStart, nil, start), data.NewField(FieldStepEnd, nil, end))
	}
	return frames
}
