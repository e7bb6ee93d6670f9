// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package pprofconv_test

import (
	"testing"

	"github.com/emberscope/emberscope/internal/fixtures"
	"github.com/emberscope/emberscope/pkg/profile/model"
	"github.com/emberscope/emberscope/pkg/profile/pprofconv"
)

// BenchmarkGranularTree builds the tree of a parsed recorded profile at each
// granularity; ToTree (the functions path of the store and Parca code) is
// the reference measured in the same run.
func BenchmarkGranularTree(b *testing.B) {
	p := parseFile(b, fixtures.Path(b, "pyroscope/pushed-profiles/bench-sort.cpu.redated.pb.gz"))
	idx := len(p.SampleType) - 1
	b.Run("ToTree", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			_ = pprofconv.ToTree(p, idx)
		}
	})
	for _, g := range []model.Granularity{model.GranularityFunctions, model.GranularityLines, model.GranularityFiles} {
		b.Run(string(g), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := pprofconv.GranularTree(p, idx, g); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
