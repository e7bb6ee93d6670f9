// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package demo

import (
	"math/rand/v2"
	"slices"
)

// scooter is one e-scooter parked in the city.
type scooter struct {
	ID      int     `json:"id"`
	X       float64 `json:"x"`
	Y       float64 `json:"y"`
	Battery float64 `json:"battery"` // 0..1
}

// scooterFleet is the parked scooters of the city, generated from a seed.
type scooterFleet struct {
	scooters []scooter
}

func newScooterFleet(n int, width, height float64, seed uint64) *scooterFleet {
	rng := rand.New(rand.NewPCG(seed, seed+1))
	f := &scooterFleet{scooters: make([]scooter, n)}
	for i := range f.scooters {
		f.scooters[i] = scooter{ID: i, X: rng.Float64() * width, Y: rng.Float64() * height, Battery: rng.Float64()}
	}
	return f
}

// candidate is a scooter with its distance to the rider.
type candidate struct {
	scooter
	Distance float64 `json:"distance"`
}

// locateNearestScooters returns the n scooters closest to (x, y) with at
// least minBattery charge, nearest first.
func (f *scooterFleet) locateNearestScooters(x, y float64, n int, minBattery float64) []candidate {
	all := make([]candidate, 0, len(f.scooters))
	for _, s := range f.scooters {
		if s.Battery < minBattery {
			continue
		}
		dx, dy := s.X-x, s.Y-y
		all = append(all, candidate{scooter: s, Distance: dx*dx + dy*dy})
	}
	slices.SortFunc(all, func(a, b candidate) int {
		switch {
		case a.Distance < b.Distance:
			return -1
		case a.Distance > b.Distance:
			return 1
		}
		return a.ID - b.ID
	})
	return all[:min(n, len(all))]
}

// rankScootersByBattery orders candidates by a score that trades distance
// for charge, best first.
func rankScootersByBattery(cands []candidate) []candidate {
	ranked := slices.Clone(cands)
	score := func(c candidate) float64 { return c.Distance / (0.2 + c.Battery) }
	slices.SortStableFunc(ranked, func(a, b candidate) int {
		sa, sb := score(a), score(b)
		switch {
		case sa < sb:
			return -1
		case sa > sb:
			return 1
		}
		return 0
	})
	return ranked
}
