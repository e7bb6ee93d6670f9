// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package novelty

import (
	"math"
	"slices"

	"github.com/emberscope/emberscope/pkg/profile/flame"
)

// DefaultGroups is how many functions a vector keeps by inclusive share
// (the function with everything it calls: a phase of the program).
const DefaultGroups = 48

// groupMax bounds the inclusive shares kept: every share (a function on
// every stack, as runtime.main, is kept too: dropping it from one profile
// and not another would make a merge of them wrong).
const groupMax = math.MaxFloat64

// addInclusive adds to b the inclusive value of every function of t:
// each node's total counts for its function unless an ancestor has the same
// name (recursion counts once per stack).
func (b *Builder) addInclusive(t *flame.Tree) {
	n := t.Len()
	// Children lists in O(n): nodes are created root first, so a parent's
	// id is below its children's.
	start := make([]int32, n+1)
	for i := 1; i < n; i++ {
		start[t.Parent(flame.NodeID(i))+1]++
	}
	for i := 1; i <= n; i++ {
		start[i] += start[i-1]
	}
	children := make([]int32, max(n-1, 0))
	fill := slices.Clone(start[:n])
	for i := 1; i < n; i++ {
		p := t.Parent(flame.NodeID(i))
		children[fill[p]] = int32(i)
		fill[p]++
	}
	incl := make([]int64, len(t.Names()))
	onPath := make([]int32, len(t.Names()))
	// Depth first: a node is pushed, then (marked by a negative id) popped
	// once its children are done.
	stack := make([]int32, 0, n)
	stack = append(stack, children[start[0]:start[1]]...)
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if x < 0 {
			onPath[t.NameID(flame.NodeID(-x))]--
			continue
		}
		id := flame.NodeID(x)
		name := t.NameID(id)
		if onPath[name] == 0 {
			incl[name] += t.NodeTotal(id)
		}
		onPath[name]++
		stack = append(stack, -x)
		stack = append(stack, children[start[x]:start[x+1]]...)
	}
	// Only the largest are kept: hash those alone.
	feats := b.featBuf[:0]
	for id, v := range incl {
		if v != 0 {
			feats = append(feats, feat{s: float64(v), h: uint64(id)})
		}
	}
	topFirst(feats, DefaultGroups)
	for _, f := range feats[:min(DefaultGroups, len(feats))] {
		b.AddGroup(t.NameOf(int32(f.h)), f.s)
	}
	b.featBuf = feats[:0]
}

// groupShare is the inclusive share of the function of hash h, 0 when v
// does not keep it.
func (v *Vector) groupShare(h uint64) (float64, bool) {
	lo, hi := 0, len(v.Groups)
	for lo < hi {
		m := (lo + hi) / 2
		switch {
		case v.Groups[m].Hash < h:
			lo = m + 1
		case v.Groups[m].Hash > h:
			hi = m
		default:
			return float64(v.Groups[m].Weight), true
		}
	}
	return 0, false
}

// groupFloor is the smallest inclusive share v keeps: a group it does not
// keep has at most that share (0 when it keeps fewer than DefaultGroups,
// that is every function); false when v keeps none (a vector from
// before version 2, or by stack), which says nothing.
func (v *Vector) groupFloor() (float64, bool) {
	if len(v.Groups) == 0 {
		return 0, false
	}
	if len(v.Groups) < DefaultGroups {
		return 0, true
	}
	m := math.Inf(1)
	for _, e := range v.Groups {
		m = min(m, float64(e.Weight))
	}
	return m, true
}
