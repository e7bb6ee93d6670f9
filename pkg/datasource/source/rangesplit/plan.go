// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package rangesplit

import (
	"fmt"
	"time"

	"github.com/emberscope/emberscope/pkg/datasource/source"
)

// MaxPieces bounds the pieces of one call: a range that needs more is
// refused with a message rather than sent as thousands of calls.
const MaxPieces = 400

// length is a range's length as the server measures it (whole milliseconds).
func length(r source.TimeRange) time.Duration {
	if r.From.IsZero() || r.To.IsZero() {
		return 0 // "all time" or "up to now": the server fills it in
	}
	return time.Duration(r.To.UnixMilli()-r.From.UnixMilli()) * time.Millisecond
}

// tooManyPieces is the error of a range that would need more than MaxPieces.
func tooManyPieces(r source.TimeRange, limit time.Duration) error {
	return fmt.Errorf("the time range %s to %s is longer than %d pieces of the profile server's longest query range (%s): narrow the range",
		r.From.UTC().Format(time.RFC3339), r.To.UTC().Format(time.RFC3339), MaxPieces, FormatDuration(limit))
}

// disjoint cuts r into consecutive pieces of at most limit that share no
// millisecond: [from, from+limit-1ms], [from+limit, from+2·limit-1ms], …,
// the last ending at r.To. Servers read a range's end millisecond as
// included, so no profile is read twice.
func disjoint(r source.TimeRange, limit time.Duration) ([]source.TimeRange, error) {
	if limit < 2*time.Millisecond {
		limit = 2 * time.Millisecond
	}
	var out []source.TimeRange
	for c := r.From; ; c = c.Add(limit) {
		if len(out) == MaxPieces {
			return nil, tooManyPieces(r, limit)
		}
		if !c.Add(limit).Before(r.To) {
			return append(out, source.TimeRange{From: c, To: r.To}), nil
		}
		out = append(out, source.TimeRange{From: c, To: c.Add(limit - time.Millisecond)})
	}
}

// seriesPiece is one call of a split series: its range and its own step.
type seriesPiece struct {
	source.TimeRange
	Step time.Duration
}

// seriesPlan cuts a series request into pieces whose points fall on the
// whole request's points. A series point at t sums the profiles in
// (t−step, t], the first point (at from) those exactly at from, and the
// points sit at from+k·step up to the range's end.
//
//   - A step of at most limit: pieces of whole steps (⌊limit/step⌋ of
//     them), each starting on a point of the whole request and asked with
//     the same step; a piece's first point, at its start, only repeats the
//     profiles exactly there, which the piece before counted in its last
//     point, and is dropped (see mergeSeries).
//   - A longer step: each step window is cut into sub-windows of at most
//     limit, each asked with its own length as the step, so that its one
//     point past its start sums the sub-window; the points of one window
//     are added into the window's point.
func seriesPlan(r source.TimeRange, step, limit time.Duration) ([]seriesPiece, error) {
	if step <= 0 {
		rs, err := disjoint(r, limit)
		if err != nil {
			return nil, err
		}
		out := make([]seriesPiece, len(rs))
		for i, x := range rs {
			out[i] = seriesPiece{TimeRange: x, Step: step}
		}
		return out, nil
	}
	var out []seriesPiece
	add := func(p seriesPiece) error {
		if len(out) == MaxPieces {
			return tooManyPieces(r, limit)
		}
		out = append(out, p)
		return nil
	}
	if step <= limit {
		size := (limit / step) * step
		for c := r.From; ; c = c.Add(size) {
			end := c.Add(size)
			if !end.Before(r.To) {
				return out, add(seriesPiece{TimeRange: source.TimeRange{From: c, To: r.To}, Step: step})
			}
			if err := add(seriesPiece{TimeRange: source.TimeRange{From: c, To: end}, Step: step}); err != nil {
				return nil, err
			}
		}
	}
	// step > limit: the points of the whole request end at its last whole step.
	windows := int64(r.To.Sub(r.From) / step)
	if windows == 0 {
		// Only the point at from, of the profiles exactly at from.
		return []seriesPiece{{TimeRange: source.TimeRange{From: r.From, To: r.From}, Step: step}}, nil
	}
	subs := int64((step + limit - 1) / limit)
	for k := int64(0); k < windows; k++ {
		w0 := r.From.Add(time.Duration(k) * step)
		for i := int64(0); i < subs; i++ {
			a := w0.Add(whole(time.Duration(i) * step / time.Duration(subs)))
			b := w0.Add(whole(time.Duration(i+1) * step / time.Duration(subs)))
			if i == subs-1 {
				b = w0.Add(step)
			}
			if !a.Before(b) {
				continue
			}
			if err := add(seriesPiece{TimeRange: source.TimeRange{From: a, To: b}, Step: b.Sub(a)}); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// whole rounds d down to whole milliseconds, the API's unit.
func whole(d time.Duration) time.Duration { return d - d%time.Millisecond }
