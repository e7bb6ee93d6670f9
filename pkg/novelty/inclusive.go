// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package novelty

import (
	"github.com/emberscope/emberscope/pkg/flame"
)

// DefaultGroups is how many functions a vector keeps by inclusive share
// (the function with everything it calls: a phase of the program).
const DefaultGroups = 32

// groupMax is the inclusive share above which a function is on (nearly)
// every stack, as runtime.main is, and says nothing: not kept.
const groupMax = 0.995

// inclusiveGroups returns the G functions of largest inclusive share of t
// below groupMax, each counted once per stack (recursion does not count
// twice), with Weight its share of the tree's total (not normalised).
func inclusiveGroups(t *flame.Tree, g int) []Entry {
	total := float64(t.Total())
	if total <= 0 || g <= 0 {
		return nil
	}
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
	feats := make([]feat, 0, len(incl))
	for id, v := range incl {
		if s := float64(v) / total; v != 0 && s < groupMax {
			feats = append(feats, feat{h: fnv64a(t.NameOf(int32(id))), s: s, ref: int32(id)})
		}
	}
	topFirst(feats, g)
	k := min(g, len(feats))
	out := make([]Entry, k)
	for i, f := range feats[:k] {
		out[i] = Entry{Key: t.NameOf(f.ref), Hash: f.h, Weight: float32(f.s)}
	}
	sortExact(out)
	return out
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
