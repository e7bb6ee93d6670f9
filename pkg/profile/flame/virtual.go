// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package flame

// VirtualFrame is one frame made at query time from a label: Label is the
// label's name, Value the value a profile had for it.
type VirtualFrame struct {
	Label string
	Value string
}

// GraftUnder merges src under nested virtual nodes, one per element of path
// (the first directly under the root), creating them as needed. A planner
// builds a frames_from_label tree by merging each series' tree under the path
// of its label values; an empty path merges src under the root.
func (t *Tree) GraftUnder(path []VirtualFrame, src *Tree) {
	at := Root
	for _, vf := range path {
		at = t.VirtualChild(at, vf.Label, vf.Value)
	}
	t.Graft(at, src)
}
