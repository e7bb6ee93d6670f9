// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package flame

import "container/heap"

// Truncate returns a tree of at most maxNodes nodes, "other" nodes included,
// that keeps the nodes of largest total and preserves every total.
//
// Nodes are kept in order of total, largest first, and a node is considered
// only once its parent is kept, so the kept set always holds the ancestors of
// every kept node (with non-negative values a node's total never exceeds its
// parent's, so this is exactly the set of largest totals). Ties are broken explicitly: between equal totals the shallower
// node wins, and at equal depth the node that comes first in Walk order wins,
// that is the one whose root-to-node path sorts first by name. The result is
// therefore the same for the same tree, whatever order it was built in.
//
// The children a kept node loses are folded into one child named OtherName of
// KindOther whose self and total are the sum of their totals, so every kept
// node keeps its total and self. Such a node is counted in maxNodes; keeping
// stops at the first node (in the order above) that would not fit. An
// existing "other" child of a kept node and the folded one are one node.
//
// When the tree already fits (maxNodes <= 0 or t.Len() <= maxNodes) Truncate
// returns t itself. A maxNodes of 1 is treated as 2: the root and one "other".
func Truncate(t *Tree, maxNodes int) *Tree {
	if t == nil || maxNodes <= 0 || t.Len() <= maxNodes {
		return t
	}
	out, _ := truncate(t, maxNodes, nil)
	return out
}

// truncate builds the truncated tree; it also carries per-node side values
// (the left and right of a diff) through the same cut, folding each side's
// dropped totals into the "other" nodes.
func truncate(t *Tree, maxNodes int, sides []sideValues) (*Tree, []sideValues) {
	maxNodes = max(maxNodes, 2)
	ix := t.index()
	kept := t.selectKept(ix, maxNodes)

	out := New()
	c := newCopier(t, out)
	mapped := make([]NodeID, len(t.nodes))
	// outSelf[s][m] collects side s's self for out node m.
	outSelf := make([][]int64, len(sides))
	addSide := func(m NodeID, s int, v int64) {
		for int(m) >= len(outSelf[s]) {
			outSelf[s] = append(outSelf[s], 0)
		}
		outSelf[s][m] += v
	}
	out.addSelf(Root, t.nodes[Root].self)
	for s := range sides {
		addSide(Root, s, sides[s].self[Root])
	}
	// Kept nodes are created in Walk order so the new tree's node order is
	// deterministic too, and parents come before children.
	other := out.Intern(OtherName)
	folded := make([]int64, len(sides))
	stack := []NodeID{Root}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		kids := ix.children(n)
		var foldedTotal int64
		clear(folded)
		for _, k := range kids {
			if kept[k] {
				m := c.child(mapped[n], k)
				mapped[k] = m
				out.addSelf(m, t.nodes[k].self)
				for s := range sides {
					addSide(m, s, sides[s].self[k])
				}
			} else {
				foldedTotal += t.nodes[k].total
				for s := range sides {
					folded[s] += sides[s].total[k]
				}
			}
		}
		if foldedTotal != 0 {
			o := out.Child(mapped[n], other, KindOther)
			out.addSelf(o, foldedTotal)
			for s := range sides {
				addSide(o, s, folded[s])
			}
		}
		for i := len(kids) - 1; i >= 0; i-- {
			if kept[kids[i]] {
				stack = append(stack, kids[i])
			}
		}
	}
	out.sumTotals()
	outSides := make([]sideValues, len(sides))
	for s := range sides {
		self := outSelf[s]
		for len(self) < out.Len() {
			self = append(self, 0)
		}
		outSides[s] = out.sideFromSelf(self)
	}
	return out, outSides
}

// selectKept picks the nodes to keep, best first, within maxNodes nodes
// counting the "other" node every kept node with dropped children needs.
func (t *Tree) selectKept(ix *childIndex, maxNodes int) []bool {
	depth := t.depths()
	// walk position breaks ties between equal totals at equal depth.
	pos := make([]int32, len(t.nodes))
	var p int32
	t.Walk(func(n NodeID, _ int) { pos[n] = p; p++ })

	kept := make([]bool, len(t.nodes))
	// unkept counts, per kept node, the children not (yet) kept.
	unkept := make([]int32, len(t.nodes))
	kept[Root] = true
	kids := ix.children(Root)
	unkept[Root] = int32(len(kids))
	used := 1
	if len(kids) > 0 {
		used++ // the root's "other"
	}
	q := &candidates{t: t, depth: depth, pos: pos}
	for _, k := range kids {
		heap.Push(q, k)
	}
	for q.Len() > 0 {
		n := q.ids[0]
		parent := t.nodes[n].parent
		nk := ix.children(n)
		cost := 1
		if len(nk) > 0 {
			cost++ // n will need its own "other" until all its children are kept
		}
		if unkept[parent] == 1 {
			cost-- // n is the parent's last dropped child: its "other" goes away
		}
		if used+cost > maxNodes {
			break
		}
		heap.Pop(q)
		used += cost
		kept[n] = true
		unkept[parent]--
		unkept[n] = int32(len(nk))
		for _, k := range nk {
			heap.Push(q, k)
		}
	}
	return kept
}

// candidates is a max-heap of nodes by total, then min depth, then min walk
// position.
type candidates struct {
	t     *Tree
	depth []int32
	pos   []int32
	ids   []NodeID
}

func (q *candidates) Len() int { return len(q.ids) }
func (q *candidates) Less(i, j int) bool {
	a, b := q.ids[i], q.ids[j]
	ta, tb := q.t.nodes[a].total, q.t.nodes[b].total
	if ta != tb {
		return ta > tb
	}
	if q.depth[a] != q.depth[b] {
		return q.depth[a] < q.depth[b]
	}
	return q.pos[a] < q.pos[b]
}
func (q *candidates) Swap(i, j int) { q.ids[i], q.ids[j] = q.ids[j], q.ids[i] }
func (q *candidates) Push(x any)    { q.ids = append(q.ids, x.(NodeID)) }
func (q *candidates) Pop() any {
	n := q.ids[len(q.ids)-1]
	q.ids = q.ids[:len(q.ids)-1]
	return n
}
