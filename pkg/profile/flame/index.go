// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package flame

import (
	"slices"
	"strings"
)

// childIndex lists every node's children in the stable order (name, then kind)
// in one flat array: the children of n are kids[start[n]:start[n+1]].
//
// The order depends only on names and kinds, never on values, so an index stays
// valid while values change and is rebuilt only when nodes are added. It is
// built once per tree shape and shared by Walk and Children, which makes
// repeated walks of a 1M-node tree cost one pass, not one sort.
type childIndex struct {
	nodes int // node count the index was built for
	start []int32
	kids  []NodeID
}

func (ix *childIndex) children(n NodeID) []NodeID {
	a, b := ix.start[n], ix.start[n+1]
	return ix.kids[a:b:b]
}

// index returns the cached child index, building it when the tree has grown.
// Concurrent readers of a tree that is no longer written may race to build
// it; each builds the same index and the atomic pointer keeps that safe.
func (t *Tree) index() *childIndex {
	if ix := t.idx.Load(); ix != nil && ix.nodes == len(t.nodes) {
		return ix
	}
	ix := t.buildIndex()
	t.idx.Store(ix)
	return ix
}

func (t *Tree) buildIndex() *childIndex {
	n := len(t.nodes)
	start := make([]int32, n+1)
	for i := 1; i < n; i++ {
		start[t.nodes[i].parent+1]++
	}
	for i := 1; i <= n; i++ {
		start[i] += start[i-1]
	}
	kids := make([]NodeID, max(n-1, 0))
	fill := make([]int32, n)
	copy(fill, start[:n])
	for i := 1; i < n; i++ {
		p := t.nodes[i].parent
		kids[fill[p]] = NodeID(i)
		fill[p]++
	}
	rank := t.nameRanks()
	cmp := func(a, b NodeID) int {
		na, nb := t.nodes[a], t.nodes[b]
		if ra, rb := rank[na.name], rank[nb.name]; ra != rb {
			return int(ra) - int(rb)
		}
		return int(na.kind) - int(nb.kind)
	}
	for p := 0; p < n; p++ {
		if group := kids[start[p]:start[p+1]]; len(group) > 1 {
			slices.SortFunc(group, cmp)
		}
	}
	return &childIndex{nodes: n, start: start, kids: kids}
}

// nameRanks gives each interned name its position in byte-wise string order,
// so sibling sorting compares integers instead of strings.
func (t *Tree) nameRanks() []int32 {
	order := make([]int32, len(t.names))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int { return strings.Compare(t.names[a], t.names[b]) })
	rank := make([]int32, len(t.names))
	for r, id := range order {
		rank[id] = int32(r)
	}
	return rank
}
