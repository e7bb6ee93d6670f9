// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package dataframes

import (
	"strings"

	"github.com/emberscope/emberscope/pkg/profile/model"
)

// UnitFor maps a profile type's sample unit (the third part of
// "name:sample_type:sample_unit:period_type:period_unit") to a Grafana unit id:
// nanoseconds→ns, bytes→bytes, count→short, and so on. Units Grafana already
// understands ("ns", "bytes", "short") map to themselves, so UnitFor is safe to
// apply twice; an unknown unit is returned unchanged, which Grafana shows as a
// suffix, and an empty unit stays empty.
func UnitFor(sampleUnit string) string {
	switch u := strings.ToLower(strings.TrimSpace(sampleUnit)); u {
	case "nanoseconds", "nanosecond", "ns":
		return "ns"
	case "microseconds", "microsecond", "us", "µs":
		return "µs"
	case "milliseconds", "millisecond", "ms":
		return "ms"
	case "seconds", "second", "s":
		return "s"
	case "bytes", "byte":
		return "bytes"
	case "count", "counts", "objects", "samples", "goroutine", "goroutines",
		"contentions", "events", "lines", "short":
		return "short"
	case "":
		return ""
	default:
		return sampleUnit
	}
}

// UnitOfProfileType returns the Grafana unit of a profile type ID (of its
// sample unit), or "" when the ID does not parse.
func UnitOfProfileType(profileTypeID string) string {
	t, err := model.ParseProfileType(profileTypeID)
	if err != nil {
		return ""
	}
	return UnitFor(t.SampleUnit)
}
