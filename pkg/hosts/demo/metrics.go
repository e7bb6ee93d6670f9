// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package demo

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"math"
	"sync"
)

// tripMetrics is the service's own observability: a latency-like histogram
// of trip costs and a running audit hash of trip events.
type tripMetrics struct {
	mu      sync.Mutex
	buckets [64]uint64
	audit   [sha256.Size]byte
}

// recordTripMetrics observes one trip: it folds the route into the audit
// hash and updates the histogram.
func (m *tripMetrics) recordTripMetrics(route []int, cost float64) string {
	digest := hashTripEvents(route)
	m.observeLatencyHistogram(cost)
	m.mu.Lock()
	defer m.mu.Unlock()
	for i := range m.audit {
		m.audit[i] ^= digest[i]
	}
	return hex.EncodeToString(digest[:8])
}

// hashTripEvents hashes every event of a trip (one per intersection) in a
// chain, as an audit log would.
func hashTripEvents(route []int) [sha256.Size]byte {
	var sum [sha256.Size]byte
	var buf [sha256.Size + 8]byte
	for round := range 40 {
		for _, node := range route {
			copy(buf[:], sum[:])
			binary.LittleEndian.PutUint64(buf[sha256.Size:], uint64(node)<<8|uint64(round))
			sum = sha256.Sum256(buf[:])
		}
	}
	return sum
}

// observeLatencyHistogram adds a value to a log-scaled histogram.
func (m *tripMetrics) observeLatencyHistogram(v float64) {
	b := 0
	switch {
	case math.IsNaN(v):
	case v > math.Exp2(float64(len(m.buckets))/4):
		b = len(m.buckets) - 1
	case v > 1:
		b = min(len(m.buckets)-1, int(math.Log2(v)*4))
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.buckets[b]++
}
