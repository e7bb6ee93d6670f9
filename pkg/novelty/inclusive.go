// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package novelty

import (
	"math"

	"github.com/emberscope/emberscope/pkg/flame"
)

// DefaultGroups is how many functions a vector keeps by inclusive share
// (the function with everything it calls: a phase of the program).
const DefaultGroups = 48

// groupMax bounds the inclusive shares kept: every share (a function on
// every stack, as runtime.main, is kept too: dropping it from one profile
// and not another would make a merge of them wrong).
const groupMax = math.MaxFloat64

// addInclusive adds to b the inclusive value of every function of t:
// each node's total counts for its function unless an ancestor has the same
// name (recursion counts once per stack).
func (b *Builder) addInclusive(t *flame.Tree) {
	incl := make([]int64, len(t.Names()))
	onPath := make([]int32, len(t.Names()))
	var path []int32 // name ids root first, without the root
	t.Walk(func(n flame.NodeID, depth int) {
		if n == flame.Root {
			return
		}
		for len(path) >= depth {
			onPath[path[len(path)-1]]--
			path = path[:len(path)-1]
		}
		name := t.NameID(n)
		if onPath[name] == 0 {
			incl[name] += t.NodeTotal(n)
		}
		onPath[name]++
		path = append(path, name)
	})
	for id, v := range incl {
		if v != 0 {
			b.AddGroup(t.NameOf(int32(id)), float64(v))
		}
	}
}

// groupShare is the inclusive share of the function of hash h, 0 when v
// does not keep it.
func (v *Vector) groupShare(h uint64) (float64, bool) {
	lo, hi := 0, len(v.Groups)
	for lo < hi {
		m := (lo + hi) / 2
		switch {
		case v.Groups[m].Hash < h:
			lo = m + 1
		case v.Groups[m].Hash > h:
			hi = m
		default:
			return float64(v.Groups[m].Weight), true
		}
	}
	return 0, false
}
