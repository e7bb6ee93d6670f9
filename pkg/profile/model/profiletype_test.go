// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package model

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestParseProfileTypeReadsPyroscopeIDs reads the IDs the real Pyroscope
// v2.2.1 and Parca servers report and writes them back unchanged.
func TestParseProfileTypeReadsPyroscopeIDs(t *testing.T) {
	for _, id := range []string{
		"process_cpu:cpu:nanoseconds:cpu:nanoseconds",
		"memory:inuse_space:bytes:space:bytes",
		"memory:alloc_objects:count:space:bytes",
		"goroutine:goroutine:count:goroutine:count",
		"block:contentions:count::",
		"parca_agent:samples:count:cpu:nanoseconds",
	} {
		pt, err := ParseProfileType(id)
		require.NoError(t, err, id)
		require.Equal(t, id, pt.String())
	}
	pt, err := ParseProfileType("memory:inuse_space:bytes:space:bytes")
	require.NoError(t, err)
	require.Equal(t, ProfileType{Name: "memory", SampleType: "inuse_space", SampleUnit: "bytes", PeriodType: "space", PeriodUnit: "bytes"}, pt)
}

// TestParseProfileTypeSaysWhatIsWrong names the defect of a bad ID.
func TestParseProfileTypeSaysWhatIsWrong(t *testing.T) {
	for id, want := range map[string]string{
		"cpu":                       `profile type "cpu" has 1 part; expected name:sample_type:sample_unit:period_type:period_unit`,
		"process_cpu:cpu":           `profile type "process_cpu:cpu" has 2 parts; expected name:sample_type:sample_unit:period_type:period_unit`,
		"a:b:c:d:e:delta":           `profile type "a:b:c:d:e:delta" has 6 parts; expected name:sample_type:sample_unit:period_type:period_unit`,
		":cpu:nanoseconds:cpu:ns":   `profile type ":cpu:nanoseconds:cpu:ns" has an empty name; expected name:sample_type:sample_unit:period_type:period_unit`,
		"p::nanoseconds:cpu:ns":     `profile type "p::nanoseconds:cpu:ns" has an empty sample type; expected name:sample_type:sample_unit:period_type:period_unit`,
		"p:cpu::cpu:ns":             `profile type "p:cpu::cpu:ns" has an empty sample unit; expected name:sample_type:sample_unit:period_type:period_unit`,
		"p:cpu:nano seconds:cpu:ns": `profile type "p:cpu:nano seconds:cpu:ns" has a bad character ' '; expected name:sample_type:sample_unit:period_type:period_unit`,
		`p:cpu:ns:cpu:ns{a="b"}`:    `profile type "p:cpu:ns:cpu:ns{a=\"b\"}" has a bad character '{'; expected name:sample_type:sample_unit:period_type:period_unit`,
	} {
		_, err := ParseProfileType(id)
		require.EqualError(t, err, want, id)
	}
}

// TestSplitProfileTypeAcceptsWhatPyroscopeStores: a server reads back the
// IDs of sample types spelled with any characters or an empty unit, as
// Pyroscope stores them, and still refuses IDs without five parts.
func TestSplitProfileTypeAcceptsWhatPyroscopeStores(t *testing.T) {
	for _, id := range []string{
		"process_cpu:cpu:nanoseconds:cpu:nanoseconds",
		"block:contentions:count::",
		"app:cpu::cpu:",
		"memory:alloc space:bytes (MiB):space:bytes",
		"café:naïve:µs::",
	} {
		pt, err := SplitProfileType(id)
		require.NoError(t, err, id)
		require.Equal(t, id, pt.String())
	}
	for id, want := range map[string]string{
		"process_cpu":           `profile type "process_cpu" has 1 part; expected name:sample_type:sample_unit:period_type:period_unit`,
		"a:b:c:d:e:delta":       `profile type "a:b:c:d:e:delta" has 6 parts; expected name:sample_type:sample_unit:period_type:period_unit`,
		":cpu:ns:cpu:ns":        `profile type ":cpu:ns:cpu:ns" has an empty name; expected name:sample_type:sample_unit:period_type:period_unit`,
		"p::nanoseconds:cpu:ns": `profile type "p::nanoseconds:cpu:ns" has an empty sample type; expected name:sample_type:sample_unit:period_type:period_unit`,
	} {
		_, err := SplitProfileType(id)
		require.EqualError(t, err, want, id)
	}
}
