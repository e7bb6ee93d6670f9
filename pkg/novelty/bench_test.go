package novelty

import (
	"testing"

	"github.com/emberscope/emberscope/pkg/flame"
	"github.com/emberscope/emberscope/pkg/flame/flametest"
)

// BenchmarkNewSummary16k summarises a 16,384-node tree shaped like a real
// profile.
func BenchmarkNewSummary16k(b *testing.B) {
	t := flametest.Random(16384, 1)
	b.ReportAllocs()
	for b.Loop() {
		_ = NewSummary(t)
	}
}

// BenchmarkTopTableReference16k is the reference for BenchmarkNewSummary16k:
// flame's top table of the same tree, another one-pass-per-node summary.
// Report NewSummary as a ratio to it.
func BenchmarkTopTableReference16k(b *testing.B) {
	t := flametest.Random(16384, 1)
	b.ReportAllocs()
	for b.Loop() {
		_ = flame.TopTable(t)
	}
}

// BenchmarkScore scores one vector against a warm series history.
func BenchmarkScore(b *testing.B) {
	vs := [2]Vector{NewSummary(flametest.Random(2048, 1)).Vector, NewSummary(flametest.Random(2048, 2)).Vector}
	sc, err := NewScorer(Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		sc.Score("svc", vs[i&1])
		i++
	}
}
