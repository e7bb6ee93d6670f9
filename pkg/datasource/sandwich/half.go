// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package sandwich

import (
	"container/heap"
	"sort"

	"github.com/emberscope/emberscope/pkg/profile/flame"
)

// Half is one half of a sandwich: a tree of merged call paths, node 0 the
// function. Unlike a flame.Tree, a node's value need not be its self plus
// its children's: in recursion a sample reaches two children of a node it
// is counted in once (pprof's -peek shows the same), so values are kept as
// merged and self is what the children leave of it, never below zero.
type Half struct {
	Name   []string
	Parent []int32
	Value  []int64
	// Other marks the nodes that stand for children a cut at maxNodes left out.
	Other []bool
	kids  map[halfKey]int32
}

type halfKey struct {
	parent int32
	name   string
}

func newHalf(root string) *Half {
	return &Half{Name: []string{root}, Parent: []int32{-1}, Value: []int64{0}, Other: []bool{false}, kids: map[halfKey]int32{}}
}

// Len is the number of nodes, the function's included.
func (h *Half) Len() int { return len(h.Name) }

// child is parent's child named name, made when missing.
func (h *Half) child(parent int32, name string) int32 {
	k := halfKey{parent, name}
	if c, ok := h.kids[k]; ok {
		return c
	}
	c := int32(len(h.Name))
	h.Name = append(h.Name, name)
	h.Parent = append(h.Parent, parent)
	h.Value = append(h.Value, 0)
	h.Other = append(h.Other, false)
	h.kids[k] = c
	return c
}

// children lists every node's children, sorted by name (the order rows are
// written in, as flame.Tree's Walk orders them).
func (h *Half) children() [][]int32 {
	out := make([][]int32, h.Len())
	for c := 1; c < h.Len(); c++ {
		p := h.Parent[c]
		out[p] = append(out[p], int32(c))
	}
	for _, kids := range out {
		sort.Slice(kids, func(i, j int) bool { return h.Name[kids[i]] < h.Name[kids[j]] })
	}
	return out
}

// Rows is a half as a nested set: one row per node, depth first, the
// function first at level 0, children by name.
type Rows struct {
	Level, Value, Self []int64
	Label              []string
	// Cut tells whether some row stands for children a cut left out.
	Cut bool
}

// Rows writes the half as a nested set.
func (h *Half) Rows() Rows {
	kids := h.children()
	n := h.Len()
	r := Rows{Level: make([]int64, 0, n), Value: make([]int64, 0, n), Self: make([]int64, 0, n), Label: make([]string, 0, n)}
	type item struct {
		node  int32
		level int64
	}
	stack := []item{{0, 0}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		var below int64
		for _, c := range kids[it.node] {
			below += h.Value[c]
		}
		r.Level = append(r.Level, it.level)
		r.Value = append(r.Value, h.Value[it.node])
		r.Self = append(r.Self, max(0, h.Value[it.node]-below))
		r.Label = append(r.Label, h.Name[it.node])
		r.Cut = r.Cut || h.Other[it.node]
		for i := len(kids[it.node]) - 1; i >= 0; i-- {
			stack = append(stack, item{kids[it.node][i], it.level + 1})
		}
	}
	return r
}

// Truncate returns a half of at most maxNodes nodes, "other" nodes included,
// as flame.Truncate cuts a flame graph: nodes are kept by value, largest
// first (ties: the shallower, then the first by name), a node only once its
// parent is kept, and the children a kept node loses are folded into one
// "other" child holding their summed value. Keeping stops at the first node
// that would not fit. A half that fits is returned as it is.
func (h *Half) Truncate(maxNodes int) *Half {
	if maxNodes <= 0 || h.Len() <= maxNodes {
		return h
	}
	maxNodes = max(maxNodes, 2)
	kids := h.children()
	depth := make([]int32, h.Len())
	order := make([]int32, h.Len())
	rank := int32(0)
	var walk func(n int32)
	walk = func(n int32) {
		order[n] = rank
		rank++
		for _, c := range kids[n] {
			depth[c] = depth[n] + 1
			walk(c)
		}
	}
	walk(0)
	kept := make([]bool, h.Len())
	kept[0] = true
	// unkept[n] counts n's children not kept; a kept node with some needs an "other"
	unkept := make([]int, h.Len())
	unkept[0] = len(kids[0])
	used := 1
	if unkept[0] > 0 {
		used++
	}
	q := &byValue{h: h, depth: depth, order: order}
	for _, c := range kids[0] {
		heap.Push(q, c)
	}
	for q.Len() > 0 {
		c := heap.Pop(q).(int32)
		p := h.Parent[c]
		need := used + 1
		if unkept[p] == 1 {
			need-- // c was p's last child left out: p's "other" goes
		}
		if len(kids[c]) > 0 {
			need++
		}
		if need > maxNodes {
			break
		}
		kept[c] = true
		unkept[p]--
		unkept[c] = len(kids[c])
		used = need
		for _, g := range kids[c] {
			heap.Push(q, g)
		}
	}
	out := newHalf(h.Name[0])
	out.Value[0] = h.Value[0]
	mapped := make([]int32, h.Len())
	var copyKept func(n int32)
	copyKept = func(n int32) {
		var dropped int64
		for _, c := range kids[n] {
			if !kept[c] {
				dropped += h.Value[c]
				continue
			}
			mapped[c] = out.child(mapped[n], h.Name[c])
			out.Value[mapped[c]] = h.Value[c]
			copyKept(c)
		}
		if unkept[n] > 0 {
			o := out.child(mapped[n], flame.OtherName)
			out.Value[o] += dropped
			out.Other[o] = true
		}
	}
	copyKept(0)
	return out
}

// byValue is the heap of the nodes that may be kept next.
type byValue struct {
	h     *Half
	depth []int32
	order []int32
	ids   []int32
}

func (q *byValue) Len() int { return len(q.ids) }
func (q *byValue) Less(i, j int) bool {
	a, b := q.ids[i], q.ids[j]
	if va, vb := q.h.Value[a], q.h.Value[b]; va != vb {
		return va > vb
	}
	if q.depth[a] != q.depth[b] {
		return q.depth[a] < q.depth[b]
	}
	return q.order[a] < q.order[b]
}
func (q *byValue) Swap(i, j int) { q.ids[i], q.ids[j] = q.ids[j], q.ids[i] }
func (q *byValue) Push(x any)    { q.ids = append(q.ids, x.(int32)) }
func (q *byValue) Pop() any {
	x := q.ids[len(q.ids)-1]
	q.ids = q.ids[:len(q.ids)-1]
	return x
}
