// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package flame

// CallSite returns the part of t under one call path: the frames of path,
// named from the root's first child down, and everything below the last of
// them. It is what keeping only the samples whose root-side frames equal the
// path gives: the path's frames keep their children's values but lose their
// own self (those samples end above the call site; the call site keeps its), and the root's total
// becomes the call site's. Frames are matched by name, whatever their kind,
// so a path may start with virtual frames. An empty path keeps all of t.
func CallSite(t *Tree, path []string) *Tree {
	if t == nil {
		return New()
	}
	if len(path) == 0 {
		return t
	}
	want := make([]int32, len(path))
	for i, name := range path {
		id, ok := t.nameIDs[name]
		if !ok {
			return New()
		}
		want[i] = id
	}
	out := newSized(t.Len(), len(t.names))
	c := newCopier(t, out)
	// depth[n] is how many frames of the path lead to n (len(path) and more
	// for the nodes below the call site), or -1 when n is off the path.
	depth := make([]int32, len(t.nodes))
	mapped := make([]NodeID, len(t.nodes))
	last := int32(len(path))
	for i := 1; i < len(t.nodes); i++ {
		nd := t.nodes[i]
		d := depth[nd.parent]
		depth[i], mapped[i] = -1, -1
		switch {
		case d < 0:
			continue
		case d >= last:
			depth[i] = d + 1
		case nd.name == want[d]:
			depth[i] = d + 1
		default:
			continue
		}
		mapped[i] = c.child(mapped[nd.parent], NodeID(i))
		if depth[i] >= last {
			out.addSelf(mapped[i], nd.self)
		}
	}
	out.sumTotals()
	return pruneEmpty(out)
}
