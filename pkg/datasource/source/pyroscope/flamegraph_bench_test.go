// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package pyroscope

import (
	"testing"

	"github.com/emberscope/emberscope/pkg/profile/flame"
)

// benchTree is a tree of about n nodes with a realistic fan-out.
func benchTree(n int) *flame.Tree {
	t := flame.New()
	names := make([]string, 2000)
	for i := range names {
		names[i] = "pkg" + string(rune('a'+i%26)) + ".Func" + string(rune('A'+i/26%26)) + string(rune('0'+i%10))
	}
	seed := uint32(1)
	next := func() uint32 { seed = seed*1664525 + 1013904223; return seed >> 8 }
	for t.Len() < n {
		depth := 3 + int(next()%25)
		stack := make([]string, depth)
		for d := range stack {
			stack[d] = names[int(next())%(50+d*80)%len(names)]
		}
		t.InsertStackNames(int64(1+next()%1000), stack...)
	}
	return t
}

// BenchmarkTreeFromFlameGraph decodes a 16k-node flamegraph answer;
// BenchmarkTreeMergeReference builds the same tree by merging it from our
// own tree, the floor any decoder pays for creating the nodes.
func BenchmarkTreeFromFlameGraph(b *testing.B) {
	fg := encode(benchTree(16384))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := TreeFromFlameGraph(fg); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkTreeMergeReference(b *testing.B) {
	src := benchTree(16384)
	b.ReportAllocs()
	for b.Loop() {
		flame.New().Merge(src)
	}
}
