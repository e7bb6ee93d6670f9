// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package flame

// This file holds the internals the transforms share: they build a new tree
// node by node, set self values only, and sum totals once at the end. Every
// node is appended after its parent, so one backward pass over the node
// array computes all totals.

// newSized returns an empty tree with room for about nodes nodes and names
// names, sparing the map growth of large transforms.
func newSized(nodes, names int) *Tree {
	t := &Tree{
		names:    make([]string, 0, names),
		nameIDs:  make(map[string]int32, names),
		nodes:    make([]node, 0, nodes),
		children: make(map[childKey]NodeID, nodes),
	}
	t.Intern(RootName)
	t.nodes = append(t.nodes, node{name: 0, parent: -1})
	return t
}

// addSelf adds v to n's self without touching any total; call sumTotals once
// all selves are set.
func (t *Tree) addSelf(n NodeID, v int64) { t.nodes[n].self += v }

// sumTotals recomputes every node's total from the selves.
func (t *Tree) sumTotals() {
	for i := range t.nodes {
		t.nodes[i].total = t.nodes[i].self
	}
	for i := len(t.nodes) - 1; i > 0; i-- {
		t.nodes[t.nodes[i].parent].total += t.nodes[i].total
	}
}

// copier creates nodes of a destination tree that mirror nodes of a source
// tree: same name, kind and virtual label. Names are interned lazily.
type copier struct {
	src, dst *Tree
	names    []int32 // src name id -> dst name id, -1 until interned
}

func newCopier(src, dst *Tree) *copier {
	m := make([]int32, len(src.names))
	for i := range m {
		m[i] = -1
	}
	return &copier{src: src, dst: dst, names: m}
}

// name returns the dst id of a src name id.
func (c *copier) name(id int32) int32 {
	if d := c.names[id]; d >= 0 {
		return d
	}
	d := c.dst.Intern(c.src.names[id])
	c.names[id] = d
	return d
}

// child returns the dst child of parent mirroring src node n, creating it.
func (c *copier) child(parent NodeID, n NodeID) NodeID {
	sn := c.src.nodes[n]
	if sn.kind == KindVirtual {
		return c.dst.VirtualChild(parent, c.src.virtualLabel[n], c.src.names[sn.name])
	}
	return c.dst.Child(parent, c.name(sn.name), sn.kind)
}

// depths returns every node's depth (root = 0).
func (t *Tree) depths() []int32 {
	d := make([]int32, len(t.nodes))
	for i := 1; i < len(t.nodes); i++ {
		d[i] = d[t.nodes[i].parent] + 1
	}
	return d
}
