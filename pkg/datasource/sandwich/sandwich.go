// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Package sandwich merges one function's callers and callees over every
// call site of a call tree, as `go tool pprof -peek` counts them, so the
// panel's sandwich of a function the cut at maxNodes folded into "other" can
// be drawn from the full-resolution merge instead of the cut graph.
package sandwich

import (
	"github.com/emberscope/emberscope/pkg/profile/flame"
)

// Sandwich is the merge of one function's call sites.
type Sandwich struct {
	// Function is the function's name.
	Function string
	// Callers has the function at its root; each level below is one caller
	// further out (the tree's root frame left out).
	Callers *Half
	// Callees has the function at its root and, below, every call it makes.
	Callees *Half
	// Self is the function's self summed over its nodes (pprof's flat).
	Self int64
	// Total is the value of the samples through the function, counted once
	// however often it recurses (pprof's cum).
	Total int64
	// Sites is how many nodes of the tree are the function.
	Sites int
}

// Of merges the sandwich of function name in t, which should be the whole
// tree (not cut at maxNodes): every node named name is a call site; its
// subtree is merged into the callees and its path to the root into the
// callers. A sample is counted once in each merged node however many times
// recursion brings it there, so each half's root is pprof's cum and its
// first level pprof's caller and callee edges. A name no node has gives
// empty halves and no sites.
func Of(t *flame.Tree, name string) *Sandwich {
	s := &Sandwich{Function: name, Callers: newHalf(name), Callees: newHalf(name)}
	w := walker{t: t, s: s}
	for id, n := range t.Names() {
		if n == name {
			w.fn, w.found = int32(id), true
		}
	}
	if !w.found {
		return s
	}
	t.Walk(w.visit)
	w.leave(0)
	s.Total = s.Callees.Value[0]
	return s
}

// walker carries the state of the one depth-first walk that merges both halves.
type walker struct {
	t     *flame.Tree
	s     *Sandwich
	fn    int32
	found bool
	// path holds the nodes from the root's child down to the node visited.
	path []flame.NodeID
	// callees[d] are the callee nodes the path's node at depth d+1 is
	// merged into: one per call site at or above it.
	callees [][]int32
	// callers[d] is the caller chain of the path's node at depth d+1 when
	// it is a call site, nil otherwise.
	callers [][]int32
	// the merged nodes' counts of path nodes they are counted for: a sample
	// through a merged node already counted above is not counted again
	onCallees, onCallers []int32
}

// visit is Walk's visitor: the nodes left since the last visit are left,
// then node n at depth is entered.
func (w *walker) visit(n flame.NodeID, depth int) {
	if depth == 0 {
		return
	}
	w.leave(depth)
	t := w.t
	var parentMerged []int32
	if depth > 1 {
		parentMerged = w.callees[depth-2]
	}
	name := t.NameID(n)
	merged := make([]int32, 0, len(parentMerged)+1)
	for _, m := range parentMerged {
		merged = append(merged, w.s.Callees.child(m, t.Name(n)))
	}
	site := name == w.fn && t.Kind(n) == flame.KindFunction
	if site {
		merged = append(merged, 0)
		w.s.Self += t.Self(n)
		w.s.Sites++
	}
	total := t.NodeTotal(n)
	w.path = append(w.path, n)
	w.callees = append(w.callees, merged)
	w.onCallees = count(w.s.Callees, w.onCallees, merged, total)
	var chain []int32
	if site {
		chain = make([]int32, 1, depth)
		at := int32(0)
		for d := depth - 2; d >= 0; d-- {
			at = w.s.Callers.child(at, t.Name(w.path[d]))
			chain = append(chain, at)
		}
		w.onCallers = count(w.s.Callers, w.onCallers, chain, total)
	}
	w.callers = append(w.callers, chain)
}

// count adds total to each merged node of nodes not already counted for a
// node above on the path, and marks them counted; the grown counts are
// returned.
func count(h *Half, on []int32, nodes []int32, total int64) []int32 {
	for len(on) < len(h.Value) {
		on = append(on, 0)
	}
	for _, m := range nodes {
		if on[m] == 0 {
			h.Value[m] += total
		}
		on[m]++
	}
	return on
}

// leave leaves the path's nodes at depth and below.
func (w *walker) leave(depth int) {
	for len(w.path) >= depth && len(w.path) > 0 {
		last := len(w.path) - 1
		for _, m := range w.callees[last] {
			w.onCallees[m]--
		}
		for _, m := range w.callers[last] {
			w.onCallers[m]--
		}
		w.path, w.callees, w.callers = w.path[:last], w.callees[:last], w.callers[:last]
	}
}
