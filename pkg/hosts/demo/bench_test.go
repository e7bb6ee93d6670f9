// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package demo

import (
	"bytes"
	"testing"
)

// BenchmarkPhases measures each unit of work a request is made of.
func BenchmarkPhases(b *testing.B) {
	s := NewService()
	b.Run("planCarRoute", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			s.city.planCarRoute(i*37%s.Nodes(), i*911%s.Nodes())
		}
	})
	b.Run("planBikeRoute", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			s.city.planBikeRoute(i*37%s.Nodes(), i*911%s.Nodes())
		}
	})
	b.Run("locateNearestScooters", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			s.fleet.locateNearestScooters(float64(i%90), 40, 25, 0.2)
		}
	})
	b.Run("computeSurgePrice", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			s.demand.computeSurgePrice(i)
		}
	})
	b.Run("applyPromotions", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			applyPromotions(30, uint64(i))
		}
	})
	route, _ := s.city.planCarRoute(0, s.Nodes()-1)
	b.Run("recordTripMetrics", func(b *testing.B) {
		for b.Loop() {
			s.metrics.recordTripMetrics(route, 30)
		}
	})
	trip := &tripResponse{Route: s.city.toWaypoints(route), Directions: s.city.describeTurns(route), Scooters: s.fleet.locateNearestScooters(1, 1, 25, 0.2)}
	b.Run("encodeTripResponse", func(b *testing.B) {
		var buf bytes.Buffer
		for b.Loop() {
			buf.Reset()
			_ = encodeTripResponse(&buf, trip)
		}
	})
}
