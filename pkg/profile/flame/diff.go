// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package flame

// sideValues holds one side's self and total per node of a diff's tree.
type sideValues struct {
	self  []int64
	total []int64
}

// sideFromSelf computes totals for per-node selves laid out on t's nodes.
func (t *Tree) sideFromSelf(self []int64) sideValues {
	total := make([]int64, len(self))
	copy(total, self)
	for i := len(t.nodes) - 1; i > 0; i-- {
		total[t.nodes[i].parent] += total[i]
	}
	return sideValues{self: self, total: total}
}

// Diff compares two trees node by node. Its tree is the union of both
// shapes, with each node's self and total the sum of both sides (what a diff
// flame graph draws as the bar); Left and Right give each side's own values. A node present on one
// side only has zeros on the other. Walk visits the union in the same stable
// order as Tree.Walk, so a range diffed with itself gives equal sides on
// every row.
type Diff struct {
	tree        *Tree
	left, right sideValues
}

// NewDiff returns the diff of left (the baseline) and right (the
// comparison). A nil tree counts as an empty one.
func NewDiff(left, right *Tree) *Diff {
	if left == nil {
		left = New()
	}
	if right == nil {
		right = New()
	}
	out := newSized(max(left.Len(), right.Len()), max(len(left.names), len(right.names)))
	mapL := mapInto(out, left)
	mapR := mapInto(out, right)
	selfL := make([]int64, out.Len())
	selfR := make([]int64, out.Len())
	for i, m := range mapL {
		selfL[m] += left.nodes[i].self
	}
	for i, m := range mapR {
		selfR[m] += right.nodes[i].self
	}
	for i := range out.nodes {
		out.nodes[i].self = selfL[i] + selfR[i]
	}
	out.sumTotals()
	return &Diff{tree: out, left: out.sideFromSelf(selfL), right: out.sideFromSelf(selfR)}
}

// mapInto creates in dst every node of src (without values) and returns, per
// src node, its node in dst.
func mapInto(dst, src *Tree) []NodeID {
	c := newCopier(src, dst)
	mapped := make([]NodeID, len(src.nodes))
	for i := 1; i < len(src.nodes); i++ {
		mapped[i] = c.child(mapped[src.nodes[i].parent], NodeID(i))
	}
	return mapped
}

// Tree returns the union tree, whose values are left+right. It must not be
// modified.
func (d *Diff) Tree() *Tree { return d.tree }

// Left returns node n's total and self in the left (baseline) tree.
func (d *Diff) Left(n NodeID) (total, self int64) { return d.left.total[n], d.left.self[n] }

// Right returns node n's total and self in the right (comparison) tree.
func (d *Diff) Right(n NodeID) (total, self int64) { return d.right.total[n], d.right.self[n] }

// Walk visits the union tree depth first in Tree.Walk order.
func (d *Diff) Walk(visit Visit) { d.tree.Walk(visit) }

// Truncate returns the diff cut to at most maxNodes nodes, choosing nodes by
// their combined (left+right) total exactly as Truncate does and folding each
// side's dropped children into that side of the "other" node, so both sides'
// totals are preserved. It returns d itself when it already fits.
func (d *Diff) Truncate(maxNodes int) *Diff {
	if maxNodes <= 0 || d.tree.Len() <= maxNodes {
		return d
	}
	out, sides := truncate(d.tree, maxNodes, []sideValues{d.left, d.right})
	return &Diff{tree: out, left: sides[0], right: sides[1]}
}
