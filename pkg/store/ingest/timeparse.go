// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package ingest

import (
	"math"
	"strconv"
	"time"
)

// ParseUnixTime parses a unix timestamp in seconds, milliseconds,
// microseconds or nanoseconds, telling them apart by magnitude (any time
// between 1973 and 5138 is read correctly).
func ParseUnixTime(s string) (time.Time, error) {
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		f, ferr := strconv.ParseFloat(s, 64)
		if ferr != nil || math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f) > 1e11 {
			return time.Time{}, errorf(ReasonBadTime, "invalid time %q: want a unix timestamp in s, ms, µs or ns", s)
		}
		return time.Unix(0, int64(f*1e9)), nil
	}
	abs := v
	if abs < 0 {
		abs = -abs
	}
	switch {
	case abs < 1e11:
		return time.Unix(v, 0), nil
	case abs < 1e14:
		return time.UnixMilli(v), nil
	case abs < 1e17:
		return time.UnixMicro(v), nil
	default:
		return time.Unix(0, v), nil
	}
}
