// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package model

import (
	"fmt"
	"strings"
)

// ProfileTypeShape is how a profile type ID is spelled, for messages.
const ProfileTypeShape = "name:sample_type:sample_unit:period_type:period_unit"

// ProfileType is one kind of profile: a sample type within a profile name,
// with the period it was sampled over. Its ID (String) is Pyroscope's
// "name:sample_type:sample_unit:period_type:period_unit", such as
// process_cpu:cpu:nanoseconds:cpu:nanoseconds or
// memory:inuse_space:bytes:space:bytes.
type ProfileType struct {
	Name       string
	SampleType string
	SampleUnit string
	PeriodType string
	PeriodUnit string
}

// String returns the Pyroscope ID of t.
func (t ProfileType) String() string {
	return t.Name + ":" + t.SampleType + ":" + t.SampleUnit + ":" + t.PeriodType + ":" + t.PeriodUnit
}

// ParseProfileType reads a Pyroscope profile type ID typed into a query. It
// has five parts separated by colons; the name, sample type and sample unit
// are not empty (the period may be, as in goroutine profiles); every part is
// made of letters, digits, '_', '.' and '-'. The error says what is wrong, e.g.
// `profile type "process_cpu:cpu" has 2 parts; expected name:sample_type:...`.
func ParseProfileType(id string) (ProfileType, error) {
	t, err := SplitProfileType(id)
	if err != nil {
		return ProfileType{}, err
	}
	if t.SampleUnit == "" {
		return ProfileType{}, fmt.Errorf("profile type %q has an empty sample unit; expected %s", id, ProfileTypeShape)
	}
	for i := 0; i < len(id); i++ {
		if id[i] != ':' && !isIDByte(id[i]) {
			return ProfileType{}, fmt.Errorf("profile type %q has a bad character %q; expected %s", id, id[i], ProfileTypeShape)
		}
	}
	return t, nil
}

// SplitProfileType reads a profile type ID as a profile server does: five
// parts separated by colons, the name and sample type not empty, any other
// bytes allowed. A pprof's sample types may be spelled with any characters
// and Pyroscope stores and answers them as they are, so a server (the store)
// accepts every ID this reads; ParseProfileType is the stricter rule for
// IDs in a query.
func SplitProfileType(id string) (ProfileType, error) {
	parts := strings.Split(id, ":")
	if len(parts) != 5 {
		noun := "parts"
		if len(parts) == 1 {
			noun = "part"
		}
		return ProfileType{}, fmt.Errorf("profile type %q has %d %s; expected %s", id, len(parts), noun, ProfileTypeShape)
	}
	for i, what := range []string{"name", "sample type"} {
		if parts[i] == "" {
			return ProfileType{}, fmt.Errorf("profile type %q has an empty %s; expected %s", id, what, ProfileTypeShape)
		}
	}
	return ProfileType{Name: parts[0], SampleType: parts[1], SampleUnit: parts[2], PeriodType: parts[3], PeriodUnit: parts[4]}, nil
}

// isIDByte reports the bytes a part of a profile type ID is made of.
func isIDByte(c byte) bool {
	return c == '_' || c == '.' || c == '-' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
}
