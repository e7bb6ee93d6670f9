// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package pprofconv

import "github.com/emberscope/emberscope/pkg/profile/flame"

// stackTable is an open-addressing hash table from stacks of shared location
// ids to tree leaves. Stacks are kept in one arena so that the equality check
// of a hit reads memory close together; this lookup runs once per sample.
type stackTable struct {
	slots   []stackSlot
	entries []stackEntry
	arena   []int32
}

type stackSlot struct {
	hash  uint64
	entry int32 // index into entries + 1; 0 marks an empty slot
}

type stackEntry struct {
	off, n int32
	leaf   flame.NodeID
}

// mix finalises a hash so that its low bits index the table well.
func mix(h uint64) uint64 {
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	return h
}

func (t *stackTable) find(h uint64, seq []int32) (flame.NodeID, bool) {
	if len(t.slots) == 0 {
		return 0, false
	}
	mask := uint64(len(t.slots) - 1)
	for i := mix(h) & mask; ; i = (i + 1) & mask {
		s := t.slots[i]
		if s.entry == 0 {
			return 0, false
		}
		if s.hash != h {
			continue
		}
		e := t.entries[s.entry-1]
		if int(e.n) == len(seq) && equal(t.arena[e.off:e.off+e.n], seq) {
			return e.leaf, true
		}
	}
}

func (t *stackTable) insert(h uint64, seq []int32, leaf flame.NodeID) {
	if 2*(len(t.entries)+1) > len(t.slots) {
		t.grow()
	}
	t.entries = append(t.entries, stackEntry{off: int32(len(t.arena)), n: int32(len(seq)), leaf: leaf})
	t.arena = append(t.arena, seq...)
	t.place(h, int32(len(t.entries)))
}

func (t *stackTable) place(h uint64, entry int32) {
	mask := uint64(len(t.slots) - 1)
	i := mix(h) & mask
	for t.slots[i].entry != 0 {
		i = (i + 1) & mask
	}
	t.slots[i] = stackSlot{hash: h, entry: entry}
}

func (t *stackTable) grow() {
	old := t.slots
	t.slots = make([]stackSlot, max(1024, 2*len(old)))
	for _, s := range old {
		if s.entry != 0 {
			t.place(s.hash, s.entry)
		}
	}
}

func equal(a, b []int32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
