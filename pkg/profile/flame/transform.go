// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package flame

import "regexp"

// The transforms below back the query language's functions. Each returns a
// new tree and leaves its input untouched. They act on function frames
// (KindFunction, and KindOther where noted); virtual frames made from labels
// by frames_from_label stay on top, in their order, so that
// reverse(frames_from_label(q, "service")) still groups by service.

// Reverse returns the callers-under-callees tree: every stack is turned
// upside down, so each leaf function becomes a child of the root with its
// callers below it. The self value of a node becomes the value of the
// reversed stack; the root total is unchanged, and a node's new total is the
// self time spent in that function through that chain of callers.
//
// The leading virtual frames of a stack stay in front, unreversed; "other"
// frames are reversed like functions.
func Reverse(t *Tree) *Tree {
	if t == nil {
		return New()
	}
	out := newSized(t.Len(), len(t.names))
	c := newCopier(t, out)
	path := make([]NodeID, 0, 64)
	for i := range t.nodes {
		n := NodeID(i)
		self := t.nodes[n].self
		if self == 0 {
			continue
		}
		path = path[:0]
		for p := n; p != Root; p = t.nodes[p].parent {
			path = append(path, p) // leaf first
		}
		// path holds the stack leaf first; its tail is the virtual prefix.
		v := len(path)
		for v > 0 && t.nodes[path[v-1]].kind == KindVirtual {
			v--
		}
		at := Root
		for j := len(path) - 1; j >= v; j-- {
			at = c.child(at, path[j])
		}
		for j := 0; j < v; j++ {
			at = c.child(at, path[j])
		}
		out.addSelf(at, self)
	}
	out.sumTotals()
	return out
}

// Focus returns the subtrees rooted at the function frames whose name matches
// re, merged under the root: each matching frame becomes a child of the root
// (after the virtual frames above it) with everything below it. Where a match
// lies under another match, only the outer one counts, so no value is
// counted twice; the new root total is the sum of the outer matches' totals.
// A nil re matches nothing.
func Focus(t *Tree, re *regexp.Regexp) *Tree {
	if t == nil || re == nil {
		return New()
	}
	out := newSized(t.Len(), len(t.names))
	match := t.matcher(re)
	c := newCopier(t, out)
	// mapped[n] is n's node in out, or -1 while n is outside any focused
	// subtree. lead[n] is the out node of the virtual frames that start n's
	// stack (Root when there are none); inLead[n] tells whether n is one of them.
	mapped := make([]NodeID, len(t.nodes))
	lead := make([]NodeID, len(t.nodes))
	inLead := make([]bool, len(t.nodes))
	mapped[Root], lead[Root], inLead[Root] = -1, Root, true
	for i := 1; i < len(t.nodes); i++ {
		n := NodeID(i)
		nd := t.nodes[n]
		p := nd.parent
		mapped[n], lead[n] = -1, lead[p]
		switch {
		case mapped[p] >= 0:
			mapped[n] = c.child(mapped[p], n)
		case nd.kind == KindVirtual && inLead[p]:
			lead[n] = c.child(lead[p], n)
			inLead[n] = true
		case nd.kind == KindFunction && match(nd.name):
			mapped[n] = c.child(lead[p], n)
		}
		if mapped[n] >= 0 {
			out.addSelf(mapped[n], nd.self)
		}
	}
	out.sumTotals()
	// Virtual frames with nothing focused under them hold no value; drop them.
	return pruneEmpty(out)
}

// DropFrames returns t without the function frames whose name matches re:
// the children of a dropped frame move up to its parent, merging with
// same-named siblings, and its self value goes to the parent. Totals above
// the dropped frames are unchanged. A nil re drops nothing.
func DropFrames(t *Tree, re *regexp.Regexp) *Tree {
	if t == nil {
		return New()
	}
	out := newSized(t.Len(), len(t.names))
	match := func(int32) bool { return false }
	if re != nil {
		match = t.matcher(re)
	}
	c := newCopier(t, out)
	mapped := make([]NodeID, len(t.nodes))
	out.addSelf(Root, t.nodes[Root].self)
	for i := 1; i < len(t.nodes); i++ {
		nd := t.nodes[i]
		if nd.kind == KindFunction && match(nd.name) {
			mapped[i] = mapped[nd.parent]
		} else {
			mapped[i] = c.child(mapped[nd.parent], NodeID(i))
		}
		out.addSelf(mapped[i], nd.self)
	}
	out.sumTotals()
	return out
}

// TruncateDepth returns t cut below depth: every node deeper than depth (the
// root is depth 0) is folded into its ancestor at depth, whose self becomes
// its total. Totals are unchanged. A depth below 0 is treated as 0.
func TruncateDepth(t *Tree, depth int) *Tree {
	if t == nil {
		return New()
	}
	out := newSized(t.Len(), len(t.names))
	depth = max(depth, 0)
	c := newCopier(t, out)
	d := t.depths()
	mapped := make([]NodeID, len(t.nodes))
	out.addSelf(Root, t.nodes[Root].self)
	for i := 1; i < len(t.nodes); i++ {
		nd := t.nodes[i]
		if int(d[i]) > depth {
			mapped[i] = mapped[nd.parent]
		} else {
			mapped[i] = c.child(mapped[nd.parent], NodeID(i))
		}
		out.addSelf(mapped[i], nd.self)
	}
	out.sumTotals()
	return out
}

// matcher returns a function telling whether a name id matches re, running
// re once per distinct name.
func (t *Tree) matcher(re *regexp.Regexp) func(int32) bool {
	const unknown, no, yes = 0, 1, 2
	memo := make([]uint8, len(t.names))
	return func(id int32) bool {
		switch memo[id] {
		case yes:
			return true
		case no:
			return false
		}
		if re.MatchString(t.names[id]) {
			memo[id] = yes
			return true
		}
		memo[id] = no
		return false
	}
}

// pruneEmpty returns t without the nodes whose total is zero (the root stays).
func pruneEmpty(t *Tree) *Tree {
	empty := false
	for i := 1; i < len(t.nodes); i++ {
		if t.nodes[i].total == 0 {
			empty = true
			break
		}
	}
	if !empty {
		return t
	}
	out := newSized(t.Len(), len(t.names))
	c := newCopier(t, out)
	mapped := make([]NodeID, len(t.nodes))
	out.addSelf(Root, t.nodes[Root].self)
	for i := 1; i < len(t.nodes); i++ {
		nd := t.nodes[i]
		if nd.total == 0 || mapped[nd.parent] < 0 {
			mapped[i] = -1
			continue
		}
		mapped[i] = c.child(mapped[nd.parent], NodeID(i))
		out.addSelf(mapped[i], nd.self)
	}
	out.sumTotals()
	return out
}
