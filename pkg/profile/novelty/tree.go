// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package novelty

import (
	"cmp"
	"slices"
	"strings"

	"github.com/emberscope/emberscope/pkg/profile/flame"
)

// FromTree builds the vector of a merged tree in one pass over its nodes:
// self values summed per function name (ByFunction) or per node, which is
// one distinct stack (ByStack). Virtual frames and truncation's "other"
// nodes count like any frame. The tree can be dropped afterwards.
func FromTree(t *flame.Tree, p Params) (Vector, error) {
	b, err := NewBuilder(p)
	if err != nil {
		return Vector{}, err
	}
	return b.FromTree(t), nil
}

// FromTree is FromTree with b's parameters; b is reset first.
func (b *Builder) FromTree(t *flame.Tree) Vector {
	b.Reset()
	if b.p.By == ByFunction {
		// Sum per interned name first: one hash per distinct name.
		self := make([]int64, len(t.Names()))
		for n := 1; n < t.Len(); n++ {
			id := flame.NodeID(n)
			self[t.NameID(id)] += t.Self(id)
		}
		for id, v := range self {
			if v != 0 {
				b.Add(t.NameOf(int32(id)), float64(v))
			}
		}
		b.addInclusive(t)
		return b.Vector()
	}
	// By stack: every node is one distinct stack, whose hash chains its
	// parent's with its frame name's (StackHash), so a stack costs one hash
	// step per node and a name one hash per tree; keys are built for the K
	// kept stacks only. Nodes are created root first, so a parent's id is
	// below its child's.
	names := grow(b.nameBuf, len(t.Names()))
	for i, n := range t.Names() {
		names[i] = fnv64a(n)
	}
	hash := grow(b.hashBuf, t.Len())
	hash[0] = StackRoot
	feats := b.featBuf[:0]
	defer func() { b.nameBuf, b.hashBuf, b.featBuf = names, hash, feats[:0] }()
	virtual := false
	for n := 1; n < t.Len(); n++ {
		id := flame.NodeID(n)
		hash[n] = StackHash(hash[t.Parent(id)], names[t.NameID(id)])
		virtual = virtual || t.Kind(id) != flame.KindFunction
		if v := t.Self(id); v != 0 {
			feats = append(feats, feat{h: hash[n], s: float64(v), ref: int32(n)})
			b.count(float64(v))
		}
	}
	if virtual {
		// A virtual and a real frame of the same name under one parent
		// make two nodes of one stack: one feature.
		slices.SortFunc(feats, func(a, b feat) int { return cmp.Compare(a.h, b.h) })
		out := feats[:0]
		for _, f := range feats {
			if k := len(out); k > 0 && out[k-1].h == f.h {
				out[k-1].s += f.s
				continue
			}
			out = append(out, f)
		}
		feats = out
	}
	v := build(b.p, feats, func(f feat) string { return stackKey(t, flame.NodeID(f.ref)) })
	if !v.IsZero() {
		v.Samples = b.samples()
	}
	return v
}

// StackRoot is the hash of the empty stack.
const StackRoot uint64 = fnvOffset64

// StackHash is the hash of the stack parent + one frame: FNV-1a 64 of the
// parent stack's hash continued with the 8 bytes of the frame name's FNV-1a
// 64 hash. A stack's feature hash is the chain from StackRoot, root first,
// so a store can hash its prefix-tree stacks node by node.
func StackHash(parent, name uint64) uint64 {
	h := parent
	for i := range 8 {
		h ^= name >> (8 * i) & 0xff
		h *= fnvPrime64
	}
	return h
}

// NameHash is the feature hash of a function name (FNV-1a 64).
func NameHash(name string) uint64 { return fnv64a(name) }

// stackKey is the frames of node n joined by ";", root first (the root
// itself excluded).
func stackKey(t *flame.Tree, n flame.NodeID) string {
	var names []string
	for ; n != flame.Root; n = t.Parent(n) {
		names = append(names, t.Name(n))
	}
	for i, j := 0, len(names)-1; i < j; i, j = i+1, j-1 {
		names[i], names[j] = names[j], names[i]
	}
	return strings.Join(names, ";")
}

// grow returns buf resized to n, reallocated only when too small.
func grow(buf []uint64, n int) []uint64 {
	if cap(buf) < n {
		return make([]uint64, n)
	}
	return buf[:n]
}
