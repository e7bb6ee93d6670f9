// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package stackrepair_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/internal/fixtures"
	"github.com/emberscope/emberscope/pkg/profile/stackrepair"
)

// frames returns a sample's function names, root first.
func frames(s *profile.Sample) []string {
	var out []string
	for i := len(s.Location) - 1; i >= 0; i-- {
		ls := s.Location[i].Line
		for j := len(ls) - 1; j >= 0; j-- {
			out = append(out, ls[j].Function.Name)
		}
	}
	return out
}

// flat is google/pprof's flat value per leaf function and the total.
func flat(p *profile.Profile, idx int) (map[string]int64, int64) {
	out := map[string]int64{}
	var total int64
	for _, s := range p.Sample {
		out[s.Location[0].Line[0].Function.Name] += s.Value[idx]
		total += s.Value[idx]
	}
	return out, total
}

// cum is the total per function of a merged tree: each function counted
// once per stack it is on.
func cum(p *profile.Profile, idx int) map[string]int64 {
	out := map[string]int64{}
	for _, s := range p.Sample {
		seen := map[string]bool{}
		for _, f := range frames(s) {
			if !seen[f] {
				seen[f] = true
				out[f] += s.Value[idx]
			}
		}
	}
	return out
}

func rooted(fs []string) bool { return len(fs) > 0 && fs[0] == "runtime.main" }

// TestRepairProperties checks the repair on deep chains cut at 64 frames by
// Go's profiler (recorded with runtime/pprof by internal/fixtures/cmd/record-stackrepair,
// not part of the Pyroscope recordings).
func TestRepairProperties(t *testing.T) {
	for _, file := range fixtures.Glob(t, "stackrepair/*.pb.gz") {
		t.Run(file[strings.LastIndex(file, "/")+1:], func(t *testing.T) {
			p, err := profile.Parse(strings.NewReader(string(fixtures.Read(t, "stackrepair/"+file[strings.LastIndex(file, "/")+1:]))))
			require.NoError(t, err)
			require.True(t, stackrepair.IsGo(p))
			require.True(t, stackrepair.MayBeTruncated(p), "the profiler cut some stacks at 64 frames")
			orig := make(map[*profile.Sample][]string, len(p.Sample))
			var complete [][]string
			var cutBefore int64
			for _, s := range p.Sample {
				fs := frames(s)
				orig[s] = fs
				if rooted(fs) {
					complete = append(complete, fs)
				} else {
					cutBefore += s.Value[1]
				}
			}
			idx := 1 // cpu nanoseconds
			flatBefore, totalBefore := flat(p, idx)

			require.True(t, stackrepair.Repair(p), "some stacks are repaired")

			flatAfter, totalAfter := flat(p, idx)
			assert.Equal(t, totalBefore, totalAfter, "the total is the profile's")
			assert.Equal(t, flatBefore, flatAfter, "the self of every function is the profile's")
			var cutAfter int64
			repaired := 0
			for _, s := range p.Sample {
				before, after := orig[s], frames(s)
				if !rooted(after) {
					cutAfter += s.Value[idx]
				}
				if len(after) == len(before) {
					assert.Equal(t, before, after)
					continue
				}
				repaired++
				// Frames are only added at the root end.
				added := len(after) - len(before)
				require.Equal(t, before, after[added:], "the stack as sent is kept, below the added frames")
				// The added frames, with the frame they join on, are the
				// root end of a stack of the profile: nothing is invented.
				joined := after[:added+1]
				found := false
				for _, fs := range orig {
					if len(fs) > added && slices.Equal(fs[:added+1], joined) {
						found = true
						break
					}
				}
				assert.True(t, found, "added frames %v come from a stack of the profile", joined)
				// A stack that now reaches runtime.main shares its root frames
				// with a complete stack.
				if rooted(after) {
					shared := false
					for _, fs := range complete {
						if len(fs) > added && slices.Equal(fs[:added+1], joined) {
							shared = true
							break
						}
					}
					assert.True(t, shared, "a repaired stack shares its root frames with a complete one")
				}
			}
			assert.Positive(t, repaired)
			assert.LessOrEqual(t, cutAfter, cutBefore, "no more time in stacks without a root")
			if strings.Contains(file, "chain-a") {
				// Work at 58 frames gives complete stacks that the ones cut
				// at 75 frames overlap by more than 16 frames.
				assert.Less(t, cutAfter, cutBefore, "less time in stacks without a root")
			}
			t.Logf("%d of %d stacks repaired; time in rootless stacks %d -> %d ns of %d", repaired, len(p.Sample), cutBefore, cutAfter, totalAfter)
			// Every function's total in the merged tree stays within the profile's total.
			for f, v := range cum(p, idx) {
				assert.LessOrEqual(t, v, totalAfter, f)
			}
		})
	}
}

// TestHeapAndRecursionRules checks when the repair is not tried: heap
// profiles with a stack over 32 frames (recorded with a larger limit), and
// profiles of neither CPU nor heap.
func TestHeapAndRecursionRules(t *testing.T) {
	fn := &profile.Function{ID: 1, Name: "main.f"}
	loc := func(id uint64) *profile.Location {
		return &profile.Location{ID: id, Line: []profile.Line{{Function: fn}}}
	}
	stack := func(n int) []*profile.Location {
		out := make([]*profile.Location, n)
		for i := range out {
			out[i] = loc(uint64(i + 1))
		}
		return out
	}
	heap := &profile.Profile{SampleType: []*profile.ValueType{{Type: "inuse_space", Unit: "bytes"}},
		Sample: []*profile.Sample{{Location: stack(32), Value: []int64{1}}}}
	assert.True(t, stackrepair.MayBeTruncated(heap), "a heap stack at the 32-frame limit")
	heap.Sample = append(heap.Sample, &profile.Sample{Location: stack(33), Value: []int64{1}})
	assert.False(t, stackrepair.MayBeTruncated(heap), "a heap stack of 33 frames: recorded with a larger limit")
	cpu := &profile.Profile{SampleType: []*profile.ValueType{{Type: "cpu", Unit: "nanoseconds"}},
		Sample: []*profile.Sample{{Location: stack(59), Value: []int64{1}}}}
	assert.False(t, stackrepair.MayBeTruncated(cpu), "no CPU stack near 64 frames")
	cpu.Sample[0].Location = stack(60)
	assert.True(t, stackrepair.MayBeTruncated(cpu))
	other := &profile.Profile{SampleType: []*profile.ValueType{{Type: "contentions", Unit: "count"}},
		Sample: []*profile.Sample{{Location: stack(64), Value: []int64{1}}}}
	assert.False(t, stackrepair.MayBeTruncated(other))
}

// TestLastGroupTakesNoPart checks the rule recording 40 of the Pyroscope
// suite shows: the stacks whose 24 outermost location ids sort last neither
// lend frames nor are repaired, unless every group before them holds a
// single stack.
func TestLastGroupTakesNoPart(t *testing.T) {
	locs := map[uint64]*profile.Location{}
	loc := func(id uint64) *profile.Location {
		if l, ok := locs[id]; ok {
			return l
		}
		fn := &profile.Function{ID: id, Name: fmt.Sprintf("main.f%d", id)}
		l := &profile.Location{ID: id, Line: []profile.Line{{Function: fn}}}
		locs[id] = l
		return l
	}
	// frames returns the locations of ids from..to, leaf (to) first.
	frames := func(from, to uint64) []*profile.Location {
		var out []*profile.Location
		for id := to; id >= from; id-- {
			out = append(out, loc(id))
		}
		return out
	}
	sample := func(ls []*profile.Location) *profile.Sample {
		return &profile.Sample{Location: ls, Value: []int64{1, 10}}
	}
	// cut is a stack of 64 frames (ids 110..173); donor holds its 16
	// outermost frames two frames in, and two frames further (108, 109).
	// The donor's ids sort before the cut stack's; other (ids 180..243)
	// sorts after both.
	newProfile := func(donors int, withOther bool) (*profile.Profile, *profile.Sample) {
		p := &profile.Profile{SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}}}
		for range donors {
			p.Sample = append(p.Sample, sample(frames(108, 140)))
		}
		cut := sample(frames(110, 173))
		p.Sample = append(p.Sample, cut)
		if withOther {
			p.Sample = append(p.Sample, sample(frames(180, 243)))
		}
		return p, cut
	}
	root := func(s *profile.Sample) uint64 { return s.Location[len(s.Location)-1].ID }

	p, cut := newProfile(2, false)
	assert.False(t, stackrepair.Repair(p), "the cut stack's group sorts last")
	assert.Equal(t, uint64(110), root(cut))

	p, cut = newProfile(1, false)
	assert.True(t, stackrepair.Repair(p), "the group before the last holds a single stack")
	assert.Equal(t, uint64(108), root(cut))
	assert.Len(t, cut.Location, 66)

	p, cut = newProfile(2, true)
	assert.True(t, stackrepair.Repair(p), "another group sorts last")
	assert.Equal(t, uint64(108), root(cut))
	assert.Equal(t, frames(108, 173), cut.Location, "the donor's two outermost frames are appended")
}
