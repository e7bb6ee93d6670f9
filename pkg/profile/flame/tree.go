// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Package flame holds the merged call tree that every query ends in: stacks are
// inserted root first, trees merge, and the result is walked in a stable order
// (children sorted by name) so the same data always draws the same picture.
//
// The tree knows no wire format: each client converts its server's answer into
// a Tree, and package dataframes turns a Tree into Grafana data frames.
//
// Beyond building and merging, the package cuts a tree to a node budget
// (Truncate, TruncateDepth), transforms it for the query language (Reverse,
// Focus, DropFrames), adds label-made frames (GraftUnder), tabulates it
// (TopTable) and compares two trees (NewDiff). Transforms return new trees and
// leave their input untouched.
package flame

import (
	"sync/atomic"
)

// NodeID indexes a node of a Tree. The root is always 0.
type NodeID int32

// Root is the id of every tree's root node.
const Root NodeID = 0

// RootName is the name of the root node, as Pyroscope names it.
const RootName = "total"

// OtherName is the name of the node that collects what truncation removed.
const OtherName = "other"

// Kind tells what a node stands for.
type Kind uint8

const (
	// KindFunction is a real frame of a stack.
	KindFunction Kind = iota
	// KindVirtual is a frame made at query time from a label value.
	KindVirtual
	// KindOther collects nodes removed by truncation or label values beyond a limit.
	KindOther
)

type node struct {
	name   int32
	parent NodeID
	kind   Kind
	self   int64
	total  int64
}

type childKey uint64

func keyOf(parent NodeID, name int32, kind Kind) childKey {
	return childKey(uint64(uint32(parent))<<32 | uint64(uint32(name))<<2 | uint64(kind)&3)
}

// Tree is a call tree with interned names. The zero value is not usable: call New.
type Tree struct {
	names    []string
	nameIDs  map[string]int32
	nodes    []node
	children map[childKey]NodeID
	// virtualLabel names the label a virtual node's value came from.
	virtualLabel map[NodeID]string
	// idx caches the sorted child index; see index.go.
	idx atomic.Pointer[childIndex]
}

// New returns an empty tree holding only the root.
func New() *Tree {
	t := &Tree{
		nameIDs:  make(map[string]int32),
		children: make(map[childKey]NodeID),
	}
	t.Intern(RootName)
	t.nodes = append(t.nodes, node{name: 0, parent: -1})
	return t
}

// Intern returns the id of name, adding it when new.
func (t *Tree) Intern(name string) int32 {
	if id, ok := t.nameIDs[name]; ok {
		return id
	}
	id := int32(len(t.names))
	t.names = append(t.names, name)
	t.nameIDs[name] = id
	return id
}

// NameOf returns the string of an interned name id.
func (t *Tree) NameOf(id int32) string { return t.names[id] }

// Names returns the interned names; index 0 is the root's name.
func (t *Tree) Names() []string { return t.names }

// Len returns the number of nodes, the root included.
func (t *Tree) Len() int { return len(t.nodes) }

// Total returns the root's total.
func (t *Tree) Total() int64 { return t.nodes[0].total }

// Name returns the name of node n.
func (t *Tree) Name(n NodeID) string { return t.names[t.nodes[n].name] }

// NameID returns the interned name id of node n.
func (t *Tree) NameID(n NodeID) int32 { return t.nodes[n].name }

// Kind returns what node n stands for.
func (t *Tree) Kind(n NodeID) Kind { return t.nodes[n].kind }

// Parent returns n's parent, or -1 for the root.
func (t *Tree) Parent(n NodeID) NodeID { return t.nodes[n].parent }

// Self returns the value of the samples whose leaf is n.
func (t *Tree) Self(n NodeID) int64 { return t.nodes[n].self }

// NodeTotal returns the value of n and everything under it.
func (t *Tree) NodeTotal(n NodeID) int64 { return t.nodes[n].total }

// VirtualLabel returns the label name a virtual node was made from ("" otherwise).
func (t *Tree) VirtualLabel(n NodeID) string { return t.virtualLabel[n] }

// Child returns the child of parent with the given name and kind, creating it.
func (t *Tree) Child(parent NodeID, name int32, kind Kind) NodeID {
	k := keyOf(parent, name, kind)
	if c, ok := t.children[k]; ok {
		return c
	}
	c := NodeID(len(t.nodes))
	t.nodes = append(t.nodes, node{name: name, parent: parent, kind: kind})
	t.children[k] = c
	return c
}

// VirtualChild returns the virtual node for label=value under parent, creating it.
func (t *Tree) VirtualChild(parent NodeID, label, value string) NodeID {
	c := t.Child(parent, t.Intern(value), KindVirtual)
	if t.virtualLabel == nil {
		t.virtualLabel = make(map[NodeID]string)
	}
	t.virtualLabel[c] = label
	return c
}

// AddValue adds v to n's self and to the total of n and all its ancestors.
func (t *Tree) AddValue(n NodeID, v int64) {
	t.nodes[n].self += v
	for ; n >= 0; n = t.nodes[n].parent {
		t.nodes[n].total += v
	}
}

// InsertStack adds value for a stack given root first as interned name ids,
// under the node at (normally Root).
func (t *Tree) InsertStack(at NodeID, value int64, rootFirst []int32) NodeID {
	n := at
	for _, name := range rootFirst {
		n = t.Child(n, name, KindFunction)
	}
	t.AddValue(n, value)
	return n
}

// InsertStackNames adds value for a stack of names given root first.
func (t *Tree) InsertStackNames(value int64, rootFirst ...string) NodeID {
	n := Root
	for _, name := range rootFirst {
		n = t.Child(n, t.Intern(name), KindFunction)
	}
	t.AddValue(n, value)
	return n
}

// Graft merges src under the node at of t: src's root maps onto at, and
// every node of src is added below it with its self value. It costs one pass
// over src.
func (t *Tree) Graft(at NodeID, src *Tree) {
	if src == nil {
		return
	}
	nameMap := make([]int32, len(src.names))
	for i, s := range src.names {
		nameMap[i] = t.Intern(s)
	}
	mapped := make([]NodeID, len(src.nodes))
	mapped[0] = at
	// src nodes are appended after their parents, so one forward pass suffices.
	for i := 1; i < len(src.nodes); i++ {
		sn := src.nodes[i]
		var c NodeID
		if sn.kind == KindVirtual {
			c = t.VirtualChild(mapped[sn.parent], src.virtualLabel[NodeID(i)], src.names[sn.name])
		} else {
			c = t.Child(mapped[sn.parent], nameMap[sn.name], sn.kind)
		}
		mapped[i] = c
	}
	// Distinct src nodes map to distinct nodes of t (children are unique by
	// name and kind on both sides), so each node takes src's self and total
	// as they are, and only the path above at needs src's total added: one
	// pass, instead of one walk to the root per node.
	srcTotal, srcRootSelf := src.nodes[0].total, src.nodes[0].self
	for i := 1; i < len(src.nodes); i++ {
		m := mapped[i]
		t.nodes[m].self += src.nodes[i].self
		t.nodes[m].total += src.nodes[i].total
	}
	t.nodes[at].self += srcRootSelf
	for n := at; n >= 0; n = t.nodes[n].parent {
		t.nodes[n].total += srcTotal
	}
}

// Merge adds every stack of src into t.
func (t *Tree) Merge(src *Tree) { t.Graft(Root, src) }

// Children returns n's children sorted by name, then kind. The slice is
// shared with the tree's cached index and must not be modified.
func (t *Tree) Children(n NodeID) []NodeID {
	return t.index().children(n)
}

// Visit is called for each node in depth-first order with its depth (root = 0).
type Visit func(n NodeID, depth int)

// Walk visits every node depth first, the root first, children sorted by name,
// so the same tree always yields the same order.
func (t *Tree) Walk(visit Visit) {
	idx := t.index()
	type item struct {
		n     NodeID
		depth int
	}
	stack := make([]item, 1, 64)
	stack[0] = item{Root, 0}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		visit(it.n, it.depth)
		kids := idx.children(it.n)
		for i := len(kids) - 1; i >= 0; i-- {
			stack = append(stack, item{kids[i], it.depth + 1})
		}
	}
}
