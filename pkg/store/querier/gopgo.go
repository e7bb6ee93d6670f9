// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package querier

import (
	"encoding/binary"

	"github.com/google/pprof/profile"
	typesv1 "github.com/grafana/pyroscope/api/gen/proto/go/types/v1"

	"github.com/emberscope/emberscope/pkg/store/storage"
)

// Go PGO (types.v1.GoPGO) cuts every stack of a pprof answer to its
// keep_locations leaf-most locations (all of them when 0), so that a profile
// small enough for the Go compiler's profile-guided optimisation still says
// which calls are hot; the samples of stacks that become equal are summed.
// With aggregate_callees the line of each stack's leaf location is
// forgotten, so that the samples of one callee merge whatever line of it ran
// (recordings 83–86). Flamegraph and tree answers are not cut (87).

// forgetCalleeLines sets the innermost line of every sample's leaf location
// to 0 and merges what became equal. Pyroscope forgets the line on the
// location itself, so a location that is some stack's leaf loses its line
// wherever else it appears too (recording 85).
func forgetCalleeLines(p *profile.Profile) (*profile.Profile, error) {
	for _, s := range p.Sample {
		if len(s.Location) > 0 && len(s.Location[0].Line) > 0 {
			s.Location[0].Line[0].Line = 0
		}
	}
	return profile.Merge([]*profile.Profile{p})
}

// pgoSamples adds to out one sample per distinct cut stack of the summed
// stored stacks, in their order.
func pgoSamples(out *profile.Profile, b *pprofBuilder, order []uint32, sums map[uint32]int64, pgo *typesv1.GoPGO) (*profile.Profile, error) {
	byStack := make(map[string]*profile.Sample)
	var key []byte
	for _, s := range order {
		v := sums[s]
		if v == 0 {
			continue
		}
		locs := b.stack(s, int64(pgo.KeepLocations))
		key = key[:0]
		for _, l := range locs {
			key = binary.AppendUvarint(key, l.ID)
		}
		if smp := byStack[string(key)]; smp != nil {
			smp.Value[0] = storage.SaturatingAdd(smp.Value[0], v)
			continue
		}
		smp := &profile.Sample{Value: []int64{v}, Location: locs}
		byStack[string(key)] = smp
		out.Sample = append(out.Sample, smp)
	}
	if pgo.AggregateCallees {
		return forgetCalleeLines(out)
	}
	return out, nil
}
