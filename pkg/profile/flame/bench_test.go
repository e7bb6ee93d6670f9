// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package flame_test

import (
	"regexp"
	"sort"
	"sync"
	"testing"

	"github.com/emberscope/emberscope/pkg/profile/flame"
	"github.com/emberscope/emberscope/pkg/profile/flame/flametest"
)

var (
	bigOnce sync.Once
	big     *flame.Tree
)

// bigTree is a 1M-node random tree shared by the benchmarks.
func bigTree(b *testing.B) *flame.Tree {
	b.Helper()
	bigOnce.Do(func() { big = flametest.Random(1_000_000, 42) })
	return big
}

// BenchmarkWalk1M walks a 1M-node tree whose child index is cached (the
// steady state: a tree is walked several times between changes).
func BenchmarkWalk1M(b *testing.B) {
	t := bigTree(b)
	t.Walk(func(flame.NodeID, int) {})
	b.ResetTimer()
	for b.Loop() {
		var n int
		t.Walk(func(flame.NodeID, int) { n++ })
	}
}

// BenchmarkWalk1MFresh walks a freshly merged 1M-node tree: the index is
// built once inside the walk.
func BenchmarkWalk1MFresh(b *testing.B) {
	src := bigTree(b)
	for b.Loop() {
		b.StopTimer()
		t := flame.New()
		t.Merge(src)
		b.StartTimer()
		t.Walk(func(flame.NodeID, int) {})
	}
}

// BenchmarkWalk1MReference is the previous Walk, which built a [][]NodeID
// index and sorted siblings by comparing name strings on every call; the
// ratio to BenchmarkWalk1MFresh is the speed-up of the cached index.
func BenchmarkWalk1MReference(b *testing.B) {
	t := bigTree(b)
	for b.Loop() {
		referenceWalk(t, func(flame.NodeID, int) {})
	}
}

// BenchmarkChildren1M asks every node's children, as a renderer would.
func BenchmarkChildren1M(b *testing.B) {
	t := bigTree(b)
	t.Children(flame.Root)
	b.ResetTimer()
	for b.Loop() {
		for n := 0; n < t.Len(); n++ {
			_ = t.Children(flame.NodeID(n))
		}
	}
}

func BenchmarkTruncate1MTo16k(b *testing.B) {
	t := bigTree(b)
	t.Walk(func(flame.NodeID, int) {})
	b.ResetTimer()
	for b.Loop() {
		if got := flame.Truncate(t, 16384); got.Len() > 16384 {
			b.Fatal(got.Len())
		}
	}
}

func BenchmarkReverse1M(b *testing.B) {
	t := bigTree(b)
	for b.Loop() {
		flame.Reverse(t)
	}
}

func BenchmarkDropFrames1M(b *testing.B) {
	t := bigTree(b)
	re := regexp.MustCompile(`Method1\d$`)
	for b.Loop() {
		flame.DropFrames(t, re)
	}
}

func BenchmarkTopTable1M(b *testing.B) {
	t := bigTree(b)
	for b.Loop() {
		flame.TopTable(t)
	}
}

func BenchmarkNewDiff1M(b *testing.B) {
	t := bigTree(b)
	for b.Loop() {
		flame.NewDiff(t, t)
	}
}

// referenceWalk is the Walk this package had before the cached index,
// kept as the benchmarks' reference.
func referenceWalk(t *flame.Tree, visit flame.Visit) {
	idx := make([][]flame.NodeID, t.Len())
	for i := 1; i < t.Len(); i++ {
		p := t.Parent(flame.NodeID(i))
		idx[p] = append(idx[p], flame.NodeID(i))
	}
	less := func(a, b flame.NodeID) bool {
		na, nb := t.Name(a), t.Name(b)
		if na != nb {
			return na < nb
		}
		return t.Kind(a) < t.Kind(b)
	}
	for _, kids := range idx {
		if len(kids) > 1 {
			sort.Slice(kids, func(a, b int) bool { return less(kids[a], kids[b]) })
		}
	}
	type item struct {
		n     flame.NodeID
		depth int
	}
	stack := []item{{flame.Root, 0}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		visit(it.n, it.depth)
		kids := idx[it.n]
		for i := len(kids) - 1; i >= 0; i-- {
			stack = append(stack, item{kids[i], it.depth + 1})
		}
	}
}

func BenchmarkReverse100k(b *testing.B) {
	t := flametest.Random(100_000, 42)
	for b.Loop() {
		flame.Reverse(t)
	}
}

// BenchmarkMerge1M merges a 1M-node tree into an empty one.
func BenchmarkMerge1M(b *testing.B) {
	t := bigTree(b)
	for b.Loop() {
		flame.New().Merge(t)
	}
}
