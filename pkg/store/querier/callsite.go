// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package querier

import "github.com/emberscope/emberscope/pkg/store/storage"

// callSiteMatcher tells which stored stacks start with a call site, as
// Pyroscope v2.2.1 matches one: function names compared frame by frame from
// the root (a frame inlined into its caller counts as a frame of its own, as
// each line of a pprof location does), so a call site that does not begin
// at the root matches nothing (recording 76). Answers are memoised per
// stack, since one stack is sampled many times.
type callSiteMatcher struct {
	names []string
	view  *storage.View
	memo  map[uint32]bool
	path  []uint32
}

func newCallSiteMatcher(names []string, v *storage.View) *callSiteMatcher {
	return &callSiteMatcher{names: names, view: v, memo: make(map[uint32]bool)}
}

// keeps reports whether stack starts, from the root, with the call site.
func (m *callSiteMatcher) keeps(stack uint32) bool {
	if ok, seen := m.memo[stack]; seen {
		return ok
	}
	m.path = m.path[:0]
	for id := stack; id != 0; id = m.view.Parent(id) {
		m.path = append(m.path, id)
	}
	ok := len(m.path) >= len(m.names)
	for i := 0; ok && i < len(m.names); i++ {
		ok = m.view.FrameName(m.path[len(m.path)-1-i]) == m.names[i]
	}
	m.memo[stack] = ok
	return ok
}
