// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package flame

import (
	"cmp"
	"slices"
)

// TopRow is one line of the top table: a frame name with its self value summed
// over every node of that name, and its total.
type TopRow struct {
	Name  string
	Self  int64
	Total int64
}

// TopTable sums self and total per frame name, the root included (as
// RootName). A name's total counts each stack once even when the name appears
// several times on it (recursion): only a node with no same-named ancestor
// adds its total. Rows are sorted by self, largest first, then by name.
//
// Virtual frames (label values from frames_from_label) are not symbols and get
// no row; the self of a virtual frame (samples with no function frame under
// it) goes to the root's row, so the selves still add up to the root total.
func TopTable(t *Tree) []TopRow {
	if t == nil {
		return nil
	}
	self := make([]int64, len(t.names))
	total := make([]int64, len(t.names))
	seen := make([]bool, len(t.names))
	onPath := make([]int32, len(t.names))
	ix := t.index()
	// Depth-first with exit events, so onPath counts a name's nodes on the
	// current root-to-node path.
	type item struct {
		n    NodeID
		exit bool
	}
	stack := []item{{Root, false}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		nd := t.nodes[it.n]
		if nd.kind == KindVirtual {
			self[t.nodes[Root].name] += nd.self
			for _, k := range ix.children(it.n) {
				stack = append(stack, item{k, false})
			}
			continue
		}
		name := nd.name
		if it.exit {
			onPath[name]--
			continue
		}
		seen[name] = true
		self[name] += nd.self
		if onPath[name] == 0 {
			total[name] += nd.total
		}
		onPath[name]++
		stack = append(stack, item{it.n, true})
		for _, k := range ix.children(it.n) {
			stack = append(stack, item{k, false})
		}
	}
	rows := make([]TopRow, 0, len(t.names))
	for id, ok := range seen {
		if ok {
			rows = append(rows, TopRow{Name: t.names[id], Self: self[id], Total: total[id]})
		}
	}
	slices.SortFunc(rows, func(a, b TopRow) int {
		if c := cmp.Compare(b.Self, a.Self); c != 0 {
			return c
		}
		return cmp.Compare(a.Name, b.Name)
	})
	return rows
}
