// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package demo

import (
	"math"
	"math/rand/v2"
	"slices"
)

// demandHistory holds recent ride requests per zone, used for surge pricing.
type demandHistory struct {
	waits [][]float64 // per zone: recent waiting times in seconds
}

func newDemandHistory(zones, perZone int, seed uint64) *demandHistory {
	rng := rand.New(rand.NewPCG(seed, seed*7+3))
	h := &demandHistory{waits: make([][]float64, zones)}
	for z := range h.waits {
		h.waits[z] = make([]float64, perZone)
		for i := range h.waits[z] {
			h.waits[z][i] = rng.ExpFloat64() * float64(60+z*5)
		}
	}
	return h
}

// computeSurgePrice derives a surge multiplier for a zone from the 50th and
// 95th percentile of its recent waiting times.
func (h *demandHistory) computeSurgePrice(zone int) float64 {
	waits := slices.Clone(h.waits[zone%len(h.waits)])
	slices.Sort(waits)
	p50 := waits[len(waits)/2]
	p95 := waits[len(waits)*95/100]
	return math.Min(3, 1+math.Max(0, p95-2*p50)/p95)
}

// estimateFare prices a trip from its travel time, a per-vehicle base and
// the surge multiplier, rounded to cents.
func estimateFare(vehicle string, travelTime, surge float64) float64 {
	base, perUnit := 2.5, 0.4
	switch vehicle {
	case "bike":
		base, perUnit = 1, 0.15
	case "scooter":
		base, perUnit = 1, 0.25
	}
	return math.Round((base+perUnit*travelTime)*surge*100) / 100
}

// applyPromotions tries every promotion code on a booked fare and keeps the
// best; checkout does this, browsing does not.
func applyPromotions(fare float64, rider uint64) float64 {
	best := fare
	rng := rand.New(rand.NewPCG(rider, 42))
	for range 100_000 {
		discount := rng.Float64() * 0.3
		if maxOff := 5.0; fare*discount > maxOff {
			discount = maxOff / fare
		}
		best = math.Min(best, fare*(1-discount))
	}
	return math.Round(best*100) / 100
}
