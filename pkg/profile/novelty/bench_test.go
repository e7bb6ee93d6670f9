// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package novelty

import (
	"testing"

	noveltydata "github.com/emberscope/emberscope/internal/fixtures/noveltydata"
	"github.com/emberscope/emberscope/pkg/profile/flame"
	"github.com/emberscope/emberscope/pkg/profile/flame/flametest"
)

// BenchmarkBuildAndScore16k builds the vector of a 16,384-node tree shaped
// like a real profile and scores it against a full history of H = 20
// vectors: the per-profile cost of novelty. It reports the bytes the store
// keeps per profile (the vector's binary form, 4-byte references).
func BenchmarkBuildAndScore16k(b *testing.B) {
	for _, by := range []By{ByFunction, ByStack} {
		b.Run(by.String(), func(b *testing.B) {
			trees := make([]*flame.Tree, 21)
			for i := range trees {
				trees[i] = flametest.Random(16384, uint64(i+1))
			}
			s, err := NewSeries(Options{})
			if err != nil {
				b.Fatal(err)
			}
			builder, err := NewBuilder(Params{By: by})
			if err != nil {
				b.Fatal(err)
			}
			for _, t := range trees[:20] {
				s.Score(builder.FromTree(t))
			}
			var size int
			b.ReportAllocs()
			for b.Loop() {
				v := builder.FromTree(trees[20])
				s.Score(v)
				size = len(v.AppendBinary(nil, func(Entry) uint64 { return 1 << 21 }))
			}
			b.ReportMetric(float64(size), "bytes/profile")
		})
	}
}

// BenchmarkTopTableReference16k is the reference of BenchmarkBuildAndScore16k
// on this shared machine: flame's top table of the same tree, another
// one-pass-per-node summary. Report build + score as a ratio to it.
func BenchmarkTopTableReference16k(b *testing.B) {
	t := flametest.Random(16384, 21)
	b.ReportAllocs()
	for b.Loop() {
		_ = flame.TopTable(t)
	}
}

// BenchmarkSigmaScoreReal scores a real recorded profile's vector (the
// codefmt series, whose functions carry package names) against a full
// history of H = 20 real ones, each way: the scoring part of the
// per-profile cost, on real names.
func BenchmarkSigmaScoreReal(b *testing.B) {
	series := loadSeries(b, noveltydata.Series800, Params{})["codefmt"]
	// sigma-alone is the σ score before the predictive spread, the
	// reference of its cost.
	for _, name := range []string{MethodSurprise, MethodSigma, "sigma-alone", MethodCosine} {
		m := name
		if name == "sigma-alone" {
			m = MethodSigma
		}
		b.Run(name, func(b *testing.B) {
			s, err := NewSeries(Options{Method: m})
			if err != nil {
				b.Fatal(err)
			}
			if name == "sigma-alone" {
				s.sigma = beforeSigma
			}
			for _, p := range series[:20] {
				s.Score(p.v)
			}
			v := series[20].v
			b.ReportAllocs()
			for b.Loop() {
				switch m {
				case MethodSurprise:
					_ = surpriseScore(sigmaFeatures(&v, s.ring, s.sigma), s.sigma.surprise)
				case MethodSigma:
					_ = sigmaScore(sigmaFeatures(&v, s.ring, s.sigma), s.sigma.top)
				default:
					for i := range s.ring {
						_ = Cosine(&v, &s.ring[i])
					}
				}
			}
		})
	}
}
