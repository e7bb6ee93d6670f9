// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Package gopgo cuts a merged pprof profile for the Go compiler's
// profile-guided optimisation, as Grafana Pyroscope v2.2.1's go_pgo stack
// trace selector (types.v1.GoPGO) cuts its pprof answers (recordings 83–86
// under internal/fixtures/pyroscope/selectors).
//
// The compiler reads only the call edges near the leaves of each stack, so
// every stack is cut to its KeepLocations leaf-most locations and the
// samples of stacks that became equal are summed: the file stays small and
// still says which calls are hot. With AggregateCallees the line of each
// stack's leaf location is forgotten, so the samples of one callee merge
// whatever line of it ran; the compiler weighs a call edge by its caller's
// line, never the callee's.
//
// The store's querier answers go_pgo with Cut, and the datasource cuts with
// it what a server without go_pgo (Parca) merged.
package gopgo

import (
	"fmt"

	"github.com/google/pprof/profile"
)

// Options are the fields of types.v1.GoPGO.
type Options struct {
	// KeepLocations is how many leaf-most locations each stack keeps; 0
	// keeps every location.
	KeepLocations int
	// AggregateCallees forgets the line of each stack's leaf location.
	AggregateCallees bool
}

// Defaults are the options profilecli's `query go-pgo` and Grafana's
// profiles Drilldown ask Pyroscope for: 5 locations, callees aggregated.
func Defaults() Options { return Options{KeepLocations: 5, AggregateCallees: true} }

// Cut cuts p's stacks as o says and returns the merged result. p is
// consumed: its samples and locations are changed in place. Sample labels
// are dropped, since a PGO profile sums stacks, not label sets, and every
// sample the cut left at zero is dropped too.
func Cut(p *profile.Profile, o Options) (*profile.Profile, error) {
	if o.KeepLocations < 0 {
		return nil, fmt.Errorf("go pgo: keep locations %d is negative", o.KeepLocations)
	}
	for _, s := range p.Sample {
		if o.KeepLocations > 0 && len(s.Location) > o.KeepLocations {
			s.Location = s.Location[:o.KeepLocations]
		}
		s.Label, s.NumLabel, s.NumUnit = nil, nil, nil
	}
	if o.AggregateCallees {
		forgetCalleeLines(p)
	}
	out, err := profile.Merge([]*profile.Profile{p})
	if err != nil {
		return nil, fmt.Errorf("go pgo: merge the cut stacks: %w", err)
	}
	return out, nil
}

// forgetCalleeLines sets the innermost line of every sample's leaf location
// to 0. As Pyroscope does, the line is forgotten on the location itself, so
// a location that is some stack's leaf loses its line wherever else it
// appears too (recording 85).
func forgetCalleeLines(p *profile.Profile) {
	for _, s := range p.Sample {
		if len(s.Location) > 0 && len(s.Location[0].Line) > 0 {
			s.Location[0].Line[0].Line = 0
		}
	}
}
