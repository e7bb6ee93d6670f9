// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Package stackrepair gives back to truncated Go stacks the root frames the
// Go runtime dropped, as Grafana Pyroscope v2 does at ingest.
//
// The Go runtime keeps only the frames nearest the leaf of a deep stack: 64
// in CPU profiles, 32 in heap profiles. A stack cut that way has no root, so
// it lands beside the real tree as a second, rootless tower. Another stack
// of the same profile often holds the missing frames: one whose frames
// overlap the cut stack's outermost frames and go further toward the root.
//
// The rules (Pyroscope's, as its recordings show them):
//
//   - Only Go profiles with a CPU (sample type "cpu") or heap sample type
//     (alloc_*/inuse_*) are considered, and only when some stack comes within
//     4 frames of the runtime's limit (64 for CPU, 32 for heap). A heap
//     profile with a stack of 33 frames or more was recorded with a larger
//     limit and is left alone.
//   - Stacks are compared by their location ids. A stack of 24 locations or
//     more is "long"; long stacks with the same 24 outermost locations form a
//     group, and the groups are taken in the order of those 24 ids.
//   - The group that sorts last takes no part (it neither lends frames nor
//     is repaired), unless every group before it holds a single stack; then
//     only its first stack takes part. Pyroscope bounds that group by the
//     number of groups rather than the number of stacks.
//   - For every group, every run of 16 locations that ends 1 to 8 locations
//     before the group's outermost one is indexed, each run pointing at the
//     group where it ends farthest from the root (the first such group on a
//     tie).
//   - A group whose 16 outermost locations are such a run of another group
//     lacks that group's 1-8 further locations. Links are followed from
//     group to group, adding up the missing counts, to the last group that
//     has nothing further; its outermost locations are appended to every
//     stack of the first group (in group order, so a group extended before
//     lends its extended stack).
//   - A chain of 56 links or more means deep recursion: the repair stops
//     there, keeping what it changed before.
//
// Values are never touched: the repaired profile has the same samples with
// the same values, some with longer stacks.
package stackrepair

import (
	"bytes"
	"encoding/binary"
	"slices"
	"sort"
	"strings"

	"github.com/google/pprof/profile"
)

const (
	// runLen is the number of locations a link is made of.
	runLen = 16
	// maxShift is how far from the root end a run may end to be indexed.
	maxShift = 8
	// suffixLen is the number of outermost locations that group stacks:
	// stacks shorter than this are neither repaired nor lend frames.
	suffixLen = runLen + maxShift
	// maxChain is the length of a chain of links taken for deep recursion.
	maxChain = 56

	cpuDepthLimit  = 64
	heapDepthLimit = 32
	// nearLimit: stacks this close to the limit may have been cut (the
	// runtime drops a few frames of its own from some).
	nearLimit = 4
)

// IsGo reports whether p looks like a profile of a Go program: a Go runtime
// function or a .go source file among its functions.
func IsGo(p *profile.Profile) bool {
	for _, f := range p.Function {
		if strings.HasPrefix(f.Name, "runtime.") || strings.HasSuffix(f.Filename, ".go") {
			return true
		}
	}
	return false
}

// MayBeTruncated reports whether p may hold stacks the Go runtime cut.
func MayBeTruncated(p *profile.Profile) bool {
	minDepth, maxDepth := 0, 0
	switch {
	case hasSampleType(p, "alloc_objects", "alloc_space", "inuse_objects", "inuse_space"):
		minDepth, maxDepth = heapDepthLimit, heapDepthLimit+1
	case hasSampleType(p, "cpu"):
		minDepth = cpuDepthLimit
	default:
		return false
	}
	minDepth -= nearLimit
	deep := false
	for _, s := range p.Sample {
		n := len(s.Location)
		if maxDepth > 0 && n >= maxDepth {
			return false
		}
		if n >= minDepth {
			deep = true
		}
	}
	return deep
}

func hasSampleType(p *profile.Profile, types ...string) bool {
	for _, st := range p.SampleType {
		if slices.Contains(types, st.Type) {
			return true
		}
	}
	return false
}

// Repair repairs the truncated stacks of a Go profile in place when
// MayBeTruncated says it may have some, and reports whether any stack
// changed. p's samples may be reordered.
func Repair(p *profile.Profile) bool {
	if !MayBeTruncated(p) {
		return false
	}
	return repair(p)
}

// stack is a sample's locations, leaf first, and their ids as bytes
// (8 little-endian bytes per id), which order and key the stacks.
type stack struct {
	s   *profile.Sample
	ids []byte
}

func (st *stack) len() int { return len(st.ids) / 8 }

// outer returns the ids of the n outermost locations, shifted by skip
// locations toward the leaf.
func (st *stack) outer(n, skip int) []byte {
	end := len(st.ids) - skip*8
	return st.ids[end-n*8 : end]
}

func newStack(s *profile.Sample) *stack {
	ids := make([]byte, 8*len(s.Location))
	for i, l := range s.Location {
		binary.LittleEndian.PutUint64(ids[8*i:], l.ID)
	}
	return &stack{s: s, ids: ids}
}

type link struct {
	group int // index of the group + 1; 0 is no link
	shift int // how many locations that group has beyond the run
}

func repair(p *profile.Profile) bool {
	stacks := make([]*stack, len(p.Sample))
	for i, s := range p.Sample {
		stacks[i] = newStack(s)
	}
	// Short stacks first, long ones by their outermost locations.
	slices.SortFunc(stacks, func(a, b *stack) int {
		if a.len() < suffixLen {
			return -1
		}
		if b.len() < suffixLen {
			return 1
		}
		return bytes.Compare(a.outer(suffixLen, 0), b.outer(suffixLen, 0))
	})
	// The comparison above is not a strict order among short stacks, so
	// the sort may leave long stacks among the short ones. Like Pyroscope,
	// look for the first long stack by bisection and take the stacks from
	// there: the long stacks left before it are neither repaired nor lend
	// frames (this is what Pyroscope's answers show).
	first := sort.Search(len(stacks), func(i int) bool { return stacks[i].len() >= suffixLen })
	long := slices.DeleteFunc(stacks[first:], func(st *stack) bool { return st.len() < suffixLen })
	// groups[i] is the index in long of group i's first stack.
	var groups []int
	for i := range long {
		if i == 0 || !bytes.Equal(long[i].outer(suffixLen, 0), long[i-1].outer(suffixLen, 0)) {
			groups = append(groups, i)
		}
	}
	// groupEnd(g) is the end in long of the stacks of group g that take
	// part. Every group but the last takes all its stacks. The last group,
	// as Pyroscope counts it, ends at the index equal to the number of
	// groups: it takes part only when every group before it holds a single
	// stack, and then with its first stack only. Otherwise it neither lends
	// frames nor is repaired (recording 40 shows it: the 48 stacks that sort
	// last are no donor for the two stacks their frames would extend).
	groupEnd := func(g int) int {
		if g+1 < len(groups) {
			return groups[g+1]
		}
		return len(groups)
	}
	takesPart := func(g int) bool { return groupEnd(g) > groups[g] }
	runs := make(map[string]link)
	for g, at := range groups {
		if !takesPart(g) {
			continue
		}
		for shift := 1; shift <= maxShift; shift++ {
			k := string(long[at].outer(runLen, shift))
			if prev, ok := runs[k]; !ok || shift > prev.shift {
				runs[k] = link{group: g + 1, shift: shift}
			}
		}
	}
	next := make([]link, len(groups))
	for g, at := range groups {
		l, ok := runs[string(long[at].outer(runLen, 0))]
		if !ok || l.group == g+1 {
			continue
		}
		next[g] = l
	}
	changed := false
	for g := range groups {
		if !takesPart(g) {
			continue
		}
		c := next[g]
		missing := 0
		for steps := 0; c.group > 0; {
			missing += c.shift
			n := next[c.group-1]
			if n.group == 0 {
				break
			}
			c = n
			if steps++; steps == maxChain {
				return changed
			}
		}
		if missing == 0 {
			continue
		}
		ref := long[groups[c.group-1]].s.Location
		if missing >= len(ref) {
			continue
		}
		tail := ref[len(ref)-missing:]
		for _, st := range long[groups[g]:groupEnd(g)] {
			// A parsed profile's samples may share one backing array: never
			// append in place.
			locs := st.s.Location
			st.s.Location = append(locs[:len(locs):len(locs)], tail...)
			changed = true
		}
	}
	return changed
}
