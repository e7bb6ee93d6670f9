// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Package flametest builds call trees for tests and benchmarks: large
// synthetic trees of an exact size, and trees from real pprof profiles
// recorded with runtime/pprof.
package flametest

import (
	"fmt"
	"math/rand/v2"

	"github.com/google/pprof/profile"

	"github.com/emberscope/emberscope/pkg/profile/flame"
)

// MaxDepth bounds the depth of Random's trees, like the stack depth of a
// real profile.
const MaxDepth = 64

// Random returns a tree of exactly nodes nodes (at least 1), shaped like a
// real profile: call chains up to MaxDepth deep that branch, names drawn from a pool of
// about nodes/20 function names so that names repeat across subtrees (and in
// recursion), and a value on every leaf. The same seed gives the same tree.
func Random(nodes int, seed uint64) *flame.Tree {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	t := flame.New()
	pool := max(nodes/20, 8)
	names := make([]int32, pool)
	for i := range names {
		names[i] = t.Intern(fmt.Sprintf("github.com/acme/svc/pkg%03d.(*T%d).Method%d", i%173, i%31, i))
	}
	leaf := make([]bool, 1, nodes)
	leaf[0] = true
	depth := make([]int, 1, nodes)
	for t.Len() < nodes {
		// Extend a recent node most of the time (deep chains), an arbitrary
		// one otherwise or when the recent one is MaxDepth deep already.
		var parent flame.NodeID
		if n := t.Len(); r.IntN(4) > 0 {
			parent = flame.NodeID(n - 1 - r.IntN(min(n, 8)))
		} else {
			parent = flame.NodeID(r.IntN(n))
		}
		if depth[parent] >= MaxDepth { // climb to a random ancestor
			for climb := 1 + r.IntN(MaxDepth); climb > 0 && parent != flame.Root; climb-- {
				parent = t.Parent(parent)
			}
		}
		before := t.Len()
		// Zipf-like name choice: a few hot names, a long tail.
		name := names[int(float64(pool)*r.Float64()*r.Float64())]
		t.Child(parent, name, flame.KindFunction)
		if t.Len() > before { // a new node, not an existing child
			leaf = append(leaf, true)
			depth = append(depth, depth[parent]+1)
			leaf[parent] = false
		}
	}
	for i, isLeaf := range leaf {
		if isLeaf {
			t.AddValue(flame.NodeID(i), 1+r.Int64N(1000))
		} else if r.IntN(8) == 0 {
			t.AddValue(flame.NodeID(i), 1+r.Int64N(100))
		}
	}
	return t
}

// FromProfile builds a tree from a pprof profile the way Pyroscope does:
// every line of every location is a frame, the first line of the first
// location is the leaf, and sampleIndex picks the value. Samples with a zero
// value are skipped.
func FromProfile(p *profile.Profile, sampleIndex int) (*flame.Tree, error) {
	if sampleIndex < 0 || sampleIndex >= len(p.SampleType) {
		return nil, fmt.Errorf("flametest: sample index %d out of range: profile has %d sample types", sampleIndex, len(p.SampleType))
	}
	t := flame.New()
	var stack []int32
	for _, s := range p.Sample {
		v := s.Value[sampleIndex]
		if v == 0 {
			continue
		}
		stack = stack[:0]
		for i := len(s.Location) - 1; i >= 0; i-- {
			lines := s.Location[i].Line
			for j := len(lines) - 1; j >= 0; j-- {
				name := "<unknown>"
				if f := lines[j].Function; f != nil {
					name = f.Name
				}
				stack = append(stack, t.Intern(name))
			}
		}
		t.InsertStack(flame.Root, v, stack)
	}
	return t, nil
}
