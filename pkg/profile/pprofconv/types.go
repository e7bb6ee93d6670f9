// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package pprofconv

import (
	"strings"

	"github.com/google/pprof/profile"

	"github.com/emberscope/emberscope/pkg/profile/model"
)

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
func (n Naming) TypeOf(p *profile.Profile, i int) model.ProfileType {
	st := p.SampleType[i]
	t := model.ProfileType{SampleType: st.Type, SampleUnit: st.Unit}
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
func (n Naming) inferName(t model.ProfileType) string {
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
