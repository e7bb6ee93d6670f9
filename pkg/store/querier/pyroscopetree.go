// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package querier

import (
	"encoding/binary"
	"sort"

	querierv1 "github.com/grafana/pyroscope/api/gen/proto/go/querier/v1"

	"github.com/emberscope/emberscope/pkg/profile/flame"
)

// ptree is a merged call tree in the shape Grafana Pyroscope answers from:
// every node's children sorted by name (byte order), a nameless root above
// the stacks' roots. Its truncation, binary encoding and flamegraph layout
// follow Pyroscope v2.2.1's answers node for node (see the replay suite).
type ptree struct {
	name     string
	self     int64
	total    int64
	children []*ptree
}

// fromFlame converts a merged flame.Tree.
func fromFlame(t *flame.Tree) *ptree {
	nodes := make([]*ptree, t.Len())
	for i := range nodes {
		n := flame.NodeID(i)
		nodes[i] = &ptree{self: t.Self(n), total: t.NodeTotal(n)}
		if i > 0 {
			nodes[i].name = t.Name(n)
			p := nodes[t.Parent(n)]
			p.children = append(p.children, nodes[i])
		}
	}
	for _, n := range nodes {
		sort.Slice(n.children, func(a, b int) bool { return n.children[a].name < n.children[b].name })
	}
	return nodes[0]
}

// size counts the nodes below the root.
func (t *ptree) size() int {
	n := 0
	stack := append([]*ptree(nil), t.children...)
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = append(stack[:len(stack)-1], c.children...)
		n++
	}
	return n
}

// minTotal is the total a node needs to be kept when at most maxNodes
// nodes (below the root) are kept: the maxNodes-th largest node total, or
// 0 when the tree is small enough. Every node with at least that total is
// kept, so equal totals are all kept or all folded.
func (t *ptree) minTotal(maxNodes int) int64 {
	if maxNodes < 1 || t.size() <= maxNodes {
		return 0
	}
	var totals []int64
	stack := append([]*ptree(nil), t.children...)
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = append(stack[:len(stack)-1], c.children...)
		totals = append(totals, c.total)
	}
	sort.Slice(totals, func(a, b int) bool { return totals[a] > totals[b] })
	return totals[maxNodes-1]
}

// truncate folds, under every node, the children whose total is below
// minTotal into one child named "other" (kept in name order, added to an
// existing "other"), and returns t. Nodes named "other" are always kept.
func (t *ptree) truncate(minTotal int64) *ptree {
	stack := []*ptree{t}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		kept := n.children[:0]
		var other int64
		for _, c := range n.children {
			if c.total >= minTotal || c.name == flame.OtherName {
				kept = append(kept, c)
			} else {
				other += c.total
			}
		}
		n.children = kept
		if other > 0 {
			o := n.child(flame.OtherName)
			o.self += other
			o.total += other
		}
		stack = append(stack, n.children...)
	}
	return t
}

// child returns the child named name, inserted in name order when missing.
func (t *ptree) child(name string) *ptree {
	i := sort.Search(len(t.children), func(i int) bool { return t.children[i].name >= name })
	if i < len(t.children) && t.children[i].name == name {
		return t.children[i]
	}
	c := &ptree{name: name}
	t.children = append(t.children, nil)
	copy(t.children[i+1:], t.children[i:])
	t.children[i] = c
	return c
}

// marshal encodes t in Pyroscope's binary tree format: nodes depth first,
// the last child of a node first, each as uvarint name length, name,
// uvarint self, uvarint number of children. The root comes first, nameless.
// An empty tree is no bytes at all.
func (t *ptree) marshal() []byte {
	if len(t.children) == 0 {
		return nil
	}
	var out []byte
	stack := []*ptree{t}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		out = binary.AppendUvarint(out, uint64(len(n.name)))
		out = append(out, n.name...)
		out = binary.AppendUvarint(out, uint64(n.self))
		out = binary.AppendUvarint(out, uint64(len(n.children)))
		stack = append(stack, n.children...)
	}
	return out
}

// nameTable hands out flamegraph name indexes in first-use order.
type nameTable struct {
	names []string
	index map[string]int64
}

func (nt *nameTable) id(name string) int64 {
	if nt.index == nil {
		nt.index = make(map[string]int64)
	}
	if i, ok := nt.index[name]; ok {
		return i
	}
	i := int64(len(nt.names))
	nt.index[name] = i
	if i == 0 {
		name = flame.RootName
	}
	nt.names = append(nt.names, name)
	return i
}

// reverseTuples reverses the order of the n-int tuples of v in place.
func reverseTuples(v []int64, n int) {
	for i, j := 0, len(v)-n; i < j; i, j = i+n, j-n {
		for k := 0; k < n; k++ {
			v[i+k], v[j+k] = v[j+k], v[i+k]
		}
	}
}

// deltaX makes the x of every n-int tuple (at offset at) relative to the end
// of the previous tuple's node (x + total) of the level.
func deltaX(v []int64, n, at int) {
	var end int64
	for i := at; i < len(v); i += n {
		x := v[i]
		v[i] = x - end
		end = x + v[i+1]
	}
}

// flameGraph lays t out as Pyroscope's flamegraph: nodes depth first, the
// last child first, which sets the order of names; per level the nodes by
// x, each [x_delta, total, self, name]. A node's self comes first in its
// span and its children after it, in name order. Children with a total
// below the maxNodes cut (and nodes named "other") are folded into one
// "other" node after the kept children.
func flameGraph(t *ptree, maxNodes int) *querierv1.FlameGraph {
	minTotal := t.minTotal(maxNodes)
	var total int64
	for _, c := range t.children {
		total += c.total
	}
	type item struct {
		n     *ptree
		level int
		x     int64
	}
	var names nameTable
	var levels [][]int64
	var maxSelf int64
	stack := []item{{n: &ptree{children: t.children, total: total}}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n := it.n
		maxSelf = max(maxSelf, n.self)
		id := names.id(n.name)
		if it.level == len(levels) {
			levels = append(levels, nil)
		}
		levels[it.level] = append(levels[it.level], it.x, n.total, n.self, id)
		x := it.x + n.self
		var other int64
		for _, c := range n.children {
			if c.total >= minTotal && c.name != flame.OtherName {
				stack = append(stack, item{c, it.level + 1, x})
				x += c.total
			} else {
				other += c.total
			}
		}
		if other != 0 {
			stack = append(stack, item{&ptree{name: flame.OtherName, self: other, total: other}, it.level + 1, x})
		}
	}
	out := &querierv1.FlameGraph{Names: names.names, Total: total, MaxSelf: maxSelf}
	for _, v := range levels {
		reverseTuples(v, 4)
		deltaX(v, 4, 0)
		out.Levels = append(out.Levels, &querierv1.Level{Values: v})
	}
	return out
}

// union pads left and right to the same shape: every node of either tree
// in both, with zero values where a tree lacks it, children in name order.
func union(left, right *ptree) (*ptree, *ptree) {
	l := &ptree{children: left.children, total: left.total}
	r := &ptree{children: right.children, total: right.total}
	queue := [][2]*ptree{{l, r}}
	for len(queue) > 0 {
		a, b := queue[0][0], queue[0][1]
		queue = queue[1:]
		var ac, bc []*ptree
		i, j := 0, 0
		for i < len(a.children) || j < len(b.children) {
			switch {
			case j == len(b.children) || i < len(a.children) && a.children[i].name < b.children[j].name:
				ac, bc = append(ac, a.children[i]), append(bc, &ptree{name: a.children[i].name})
				i++
			case i == len(a.children) || b.children[j].name < a.children[i].name:
				ac, bc = append(ac, &ptree{name: b.children[j].name}), append(bc, b.children[j])
				j++
			default:
				ac, bc = append(ac, a.children[i]), append(bc, b.children[j])
				i++
				j++
			}
		}
		a.children, b.children = ac, bc
		for k := range ac {
			queue = append(queue, [2]*ptree{ac[k], bc[k]})
		}
	}
	return l, r
}

// diffMinTotal is minTotal over the larger side of each node of two
// union-shaped trees, their roots included.
func diffMinTotal(l, r *ptree, maxNodes int) int64 {
	if maxNodes < 1 || l.size()+1 <= maxNodes {
		return 0
	}
	var totals []int64
	stack := [][2]*ptree{{l, r}}
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		totals = append(totals, max(p[0].total, p[1].total))
		for k := range p[0].children {
			stack = append(stack, [2]*ptree{p[0].children[k], p[1].children[k]})
		}
	}
	sort.Slice(totals, func(a, b int) bool { return totals[a] > totals[b] })
	return totals[maxNodes-1]
}

// diffFlameGraph lays out left and right together as Pyroscope's diff:
// the union of both trees, per node [xL, totalL, selfL, xR, totalR, selfR,
// name], in the same order and with the same folding as flameGraph, a node
// kept when either side reaches the cut.
func diffFlameGraph(left, right *ptree, maxNodes int) *querierv1.FlameGraphDiff {
	var lt, rt int64
	for _, c := range left.children {
		lt += c.total
	}
	for _, c := range right.children {
		rt += c.total
	}
	left.total, right.total = lt, rt
	l, r := union(left, right)
	minTotal := diffMinTotal(l, r, maxNodes)
	type item struct {
		l, r   *ptree
		level  int
		xl, xr int64
	}
	var names nameTable
	var levels [][]int64
	var maxSelf int64
	stack := []item{{l: l, r: r}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		a, b := it.l, it.r
		if !(a.total >= minTotal || b.total >= minTotal || a.name == flame.OtherName) {
			continue
		}
		id := names.id(a.name)
		if it.level == len(levels) {
			levels = append(levels, nil)
		}
		maxSelf = max(maxSelf, a.self, b.self)
		levels[it.level] = append(levels[it.level], it.xl, a.total, a.self, it.xr, b.total, b.self, id)
		xl, xr := it.xl+a.self, it.xr+b.self
		var ol, or int64
		for k := range a.children {
			ca, cb := a.children[k], b.children[k]
			if ca.total >= minTotal || cb.total >= minTotal {
				stack = append(stack, item{ca, cb, it.level + 1, xl, xr})
				xl += ca.total
				xr += cb.total
			} else {
				ol += ca.total
				or += cb.total
			}
		}
		if ol != 0 || or != 0 {
			stack = append(stack, item{
				&ptree{name: flame.OtherName, self: ol, total: ol},
				&ptree{name: flame.OtherName, self: or, total: or},
				it.level + 1, xl, xr,
			})
		}
	}
	out := &querierv1.FlameGraphDiff{Names: names.names, Total: lt + rt, MaxSelf: maxSelf, LeftTicks: lt, RightTicks: rt}
	for _, v := range levels {
		reverseTuples(v, 7)
		deltaX(v, 7, 0)
		deltaX(v, 7, 3)
		out.Levels = append(out.Levels, &querierv1.Level{Values: v})
	}
	return out
}
