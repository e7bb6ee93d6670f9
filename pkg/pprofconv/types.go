// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package pprofconv

import (
	"strings"

	"github.com/google/pprof/profile"
)

// ProfileType is one Pyroscope profile type: a sample type within a profile name.
type ProfileType struct {
	Name       string
	SampleType string
	SampleUnit string
	PeriodType string
	PeriodUnit string
}

// ID returns the Pyroscope profile type ID "name:sample_type:sample_unit:period_type:period_unit".
func (t ProfileType) ID() string {
	return t.Name + ":" + t.SampleType + ":" + t.SampleUnit + ":" + t.PeriodType + ":" + t.PeriodUnit
}

// ParseProfileTypeID splits a profile type ID into its five parts.
func ParseProfileTypeID(id string) (ProfileType, bool) {
	parts := strings.Split(id, ":")
	if len(parts) != 5 || parts[0] == "" || parts[1] == "" {
		return ProfileType{}, false
	}
	return ProfileType{parts[0], parts[1], parts[2], parts[3], parts[4]}, true
}

// Naming tells how the profile types of a pprof are named.
type Naming struct {
	// Name, when set, names every profile type (Push's __name__ label).
	Name string
	// Fallback names sample types Pyroscope has no name for (the ingest's
	// application name).
	Fallback string
	// Hints maps a sample type to the display name a client gave it
	// (pyroscope-go's sample_type_config: "mutex_count", "block_duration", ...).
	Hints map[string]string
}

// TypeOf returns the profile type of sample type i of p.
func (n Naming) TypeOf(p *profile.Profile, i int) ProfileType {
	st := p.SampleType[i]
	t := ProfileType{SampleType: st.Type, SampleUnit: st.Unit}
	if p.PeriodType != nil {
		t.PeriodType, t.PeriodUnit = p.PeriodType.Type, p.PeriodType.Unit
	}
	switch {
	case n.Name != "":
		t.Name = n.Name
	default:
		t.Name = n.inferName(t)
	}
	return t
}

// inferName picks Pyroscope's profile name for a sample type.
func (n Naming) inferName(t ProfileType) string {
	if hint := n.Hints[t.SampleType]; hint != "" {
		switch {
		case strings.HasPrefix(hint, "mutex"):
			return "mutex"
		case strings.HasPrefix(hint, "block"):
			return "block"
		}
	}
	switch t.SampleType {
	case "cpu":
		return "process_cpu"
	case "samples":
		if t.PeriodType == "cpu" {
			return "process_cpu"
		}
	case "alloc_objects", "alloc_space", "inuse_objects", "inuse_space":
		return "memory"
	case "goroutine", "goroutines":
		return "goroutine"
	case "contentions", "delay":
		// Go's mutex and block profiles look alike; without a client hint
		// they are filed as block profiles.
		return "block"
	case "wall":
		return "wall"
	}
	if n.Fallback != "" {
		return n.Fallback
	}
	return "unknown"
}
