// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package frames

import (
	"strconv"
	"time"

	"github.com/grafana/grafana-plugin-sdk-go/data"
)

// Field names of a series frame's step windows. The frontend's data links
// reference them with Grafana's variable syntax (${__data.fields.stepStart}),
// since a data link cannot compute a point's step from its time.
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
// start and end of its StepWindow in Unix milliseconds, written as text so
// that Grafana's time-series panel does not draw them as series and a data
// link interpolates the plain number. It returns frames.
func WithStepWindows(frames []*data.Frame, step time.Duration) []*data.Frame {
	for _, f := range frames {
		if len(f.Fields) == 0 || f.Fields[0].Type() != data.FieldTypeTime {
			continue
		}
		times := f.Fields[0]
		start := make([]string, times.Len())
		end := make([]string, times.Len())
		for i := range start {
			from, to := StepWindow(times.At(i).(time.Time), step)
			start[i] = strconv.FormatInt(from.UnixMilli(), 10)
			end[i] = strconv.FormatInt(to.UnixMilli(), 10)
		}
		f.Fields = append(f.Fields, data.NewField(FieldStepStart, nil, start), data.NewField(FieldStepEnd, nil, end))
	}
	return frames
}
