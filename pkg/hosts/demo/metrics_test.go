// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package demo

import (
	"math"
	"testing"
)

func TestObserveLatencyHistogramTakesAnyValue(t *testing.T) {
	var m tripMetrics
	for _, v := range []float64{-1, 0, 0.5, 1, 2, 1e6, 1e300, math.Inf(1), math.NaN()} {
		m.observeLatencyHistogram(v)
	}
	var total uint64
	for _, n := range m.buckets {
		total += n
	}
	if total != 9 {
		t.Fatalf("histogram holds %d observations, want 9", total)
	}
	if m.buckets[len(m.buckets)-1] != 3 {
		t.Errorf("last bucket holds %d, want 3 (1e300, +Inf, and nothing else above 2^16)", m.buckets[len(m.buckets)-1])
	}
}
