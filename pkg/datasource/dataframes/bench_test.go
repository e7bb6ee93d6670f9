// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package dataframes

import (
	"testing"

	"github.com/grafana/grafana-plugin-sdk-go/data"

	"github.com/emberscope/emberscope/pkg/profile/flame"
	"github.com/emberscope/emberscope/pkg/profile/flame/flametest"
)

func benchFlamegraph(b *testing.B, nodes int) {
	t := flametest.Random(nodes, 42)
	t.Walk(func(flame.NodeID, int) {}) // index built, as after a merge and a truncate
	b.ResetTimer()
	for b.Loop() {
		if f := Flamegraph(t, "nanoseconds"); f.Rows() != nodes {
			b.Fatal(f.Rows())
		}
	}
}

func BenchmarkFlamegraph100k(b *testing.B) { benchFlamegraph(b, 100_000) }
func BenchmarkFlamegraph1M(b *testing.B)   { benchFlamegraph(b, 1_000_000) }

// BenchmarkFlamegraphReference1M builds the same columns the common way
// (Field.Append per value, plain string labels); the ratio to
// BenchmarkFlamegraph1M shows what the preallocated enum columns save.
func BenchmarkFlamegraphReference1M(b *testing.B) {
	t := flametest.Random(1_000_000, 42)
	t.Walk(func(flame.NodeID, int) {})
	b.ResetTimer()
	for b.Loop() {
		level := data.NewField("level", nil, []int64{})
		value := data.NewField("value", nil, []int64{})
		self := data.NewField("self", nil, []int64{})
		label := data.NewField("label", nil, []string{})
		t.Walk(func(n flame.NodeID, depth int) {
			level.Append(int64(depth))
			value.Append(t.NodeTotal(n))
			self.Append(t.Self(n))
			label.Append(t.Name(n))
		})
		data.NewFrame("response", level, value, self, label)
	}
}

// BenchmarkFlamegraphArrow1M encodes the 1M-row frame as the backend sends it
// to Grafana (Arrow).
func BenchmarkFlamegraphArrow1M(b *testing.B) {
	f := Flamegraph(flametest.Random(1_000_000, 42), "nanoseconds")
	b.ResetTimer()
	for b.Loop() {
		if _, err := f.MarshalArrow(); err != nil {
			b.Fatal(err)
		}
	}
}
