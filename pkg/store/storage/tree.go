// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package storage

import (
	"math"

	"github.com/emberscope/emberscope/pkg/profile/flame"
)

// TreeBuilder adds stored profiles to a flame tree. Each stack id is walked
// into the tree once (memoised), and values are summed per stack before they
// reach the tree on Flush.
type TreeBuilder struct {
	v     *View
	t     *flame.Tree
	nodes []flame.NodeID // tree node per stack id; 0 means not yet resolved (stack 0 is the root)
	names []int32        // tree name id + 1 per string id; 0 means not yet interned
	sums  []int64        // pending value per stack id
	dirty []uint32
	path  []uint32
}

// NewTreeBuilder returns a builder adding to t with the stacks of v.
func NewTreeBuilder(v *View, t *flame.Tree) *TreeBuilder {
	return &TreeBuilder{v: v, t: t}
}

// AddProfile adds every sample of p.
func (b *TreeBuilder) AddProfile(p *Profile) {
	for i, s := range p.Stacks {
		b.Add(s, p.Values[i])
	}
}

// Add adds value to stack.
func (b *TreeBuilder) Add(stack uint32, value int64) {
	if int(stack) >= len(b.sums) {
		n := max(int(stack)+1, b.v.Len())
		b.sums = append(b.sums, make([]int64, n-len(b.sums))...)
	}
	if b.sums[stack] == 0 {
		b.dirty = append(b.dirty, stack)
	}
	b.sums[stack] = SaturatingAdd(b.sums[stack], value)
}

// SaturatingAdd returns a+b, clamped to the int64 range instead of wrapping.
func SaturatingAdd(a, b int64) int64 {
	s := a + b
	switch {
	case a > 0 && b > 0 && s < 0:
		return math.MaxInt64
	case a < 0 && b < 0 && s >= 0:
		return math.MinInt64
	}
	return s
}

// Flush adds the pending values to the tree.
func (b *TreeBuilder) Flush() {
	for _, s := range b.dirty {
		if v := b.sums[s]; v != 0 {
			b.t.AddValue(b.node(s), v)
			b.sums[s] = 0
		}
	}
	b.dirty = b.dirty[:0]
}

// node returns the tree node of stack s, creating the missing path.
func (b *TreeBuilder) node(s uint32) flame.NodeID {
	if int(s) >= len(b.nodes) {
		b.nodes = append(b.nodes, make([]flame.NodeID, max(int(s)+1, b.v.Len())-len(b.nodes))...)
	}
	if s == 0 || b.nodes[s] != 0 {
		return b.nodes[s]
	}
	// Walk up to the nearest resolved ancestor, then down creating children.
	b.path = b.path[:0]
	for cur := s; cur != 0 && b.nodes[cur] == 0; cur = b.v.Parent(cur) {
		b.path = append(b.path, cur)
	}
	n := b.nodes[b.v.Parent(b.path[len(b.path)-1])]
	for i := len(b.path) - 1; i >= 0; i-- {
		cur := b.path[i]
		n = b.t.Child(n, b.name(b.v.FrameID(cur)), flame.KindFunction)
		b.nodes[cur] = n
	}
	return n
}

func (b *TreeBuilder) name(str uint32) int32 {
	if int(str) >= len(b.names) {
		b.names = append(b.names, make([]int32, max(int(str)+1, len(b.v.strs))-len(b.names))...)
	}
	if id := b.names[str]; id != 0 {
		return id - 1
	}
	id := b.t.Intern(b.v.String(str))
	b.names[str] = id + 1
	return id
}
