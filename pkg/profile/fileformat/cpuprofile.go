// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package fileformat

import (
	"bytes"
	"encoding/json"
	"errors"

	"github.com/google/pprof/profile"
)

// cpuProfile is the JSON of a Chrome DevTools / Node CPU profile
// (Profiler.Profile of the DevTools protocol; `node --cpu-prof` writes it).
type cpuProfile struct {
	Nodes      []cpuNode `json:"nodes"`
	StartTime  *int64    `json:"startTime"`
	EndTime    *int64    `json:"endTime"`
	Samples    []int64   `json:"samples"`
	TimeDeltas []int64   `json:"timeDeltas"`
}

type cpuNode struct {
	ID        int64   `json:"id"`
	CallFrame *frame  `json:"callFrame"`
	Children  []int64 `json:"children"`
	// Parent is how some tools (older DevTools) link nodes instead.
	Parent *int64 `json:"parent"`
}

type frame struct {
	FunctionName string `json:"functionName"`
	URL          string `json:"url"`
	LineNumber   int64  `json:"lineNumber"`
	ColumnNumber int64  `json:"columnNumber"`
}

// ParseCPUProfile reads a .cpuprofile into a profile with two sample types,
// samples:count and cpu:nanoseconds. Sample i lasts from its time until
// sample i+1's, the last one until endTime (times are startTime plus the
// running sum of timeDeltas, in microseconds). Frames are keyed by function
// name, URL, line and column (one pprof location each, lines and columns
// made 1-based); the "(root)" node is the tree's root, not a frame; an
// unnamed function is "(anonymous)", as DevTools shows it.
func ParseCPUProfile(name string, text []byte) (*profile.Profile, error) {
	var cp cpuProfile
	dec := json.NewDecoder(bytes.NewReader(text))
	if err := dec.Decode(&cp); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return nil, errorf(name, "not a .cpuprofile: invalid JSON at byte %d: %v", se.Offset, err)
		}
		return nil, errorf(name, "not a .cpuprofile: %v", err)
	}
	switch {
	case len(cp.Nodes) == 0:
		return nil, errorf(name, "not a .cpuprofile: no \"nodes\"")
	case cp.StartTime == nil || cp.EndTime == nil:
		return nil, errorf(name, "not a .cpuprofile: no \"startTime\" or \"endTime\"")
	case len(cp.Samples) != len(cp.TimeDeltas):
		return nil, errorf(name, ".cpuprofile: %d samples but %d timeDeltas; want one delta per sample", len(cp.Samples), len(cp.TimeDeltas))
	}
	stacks, err := nodeStacks(name, cp.Nodes)
	if err != nil {
		return nil, err
	}
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		PeriodType: &profile.ValueType{Type: "cpu", Unit: "nanoseconds"},
		TimeNanos:  *cp.StartTime * 1000,
		// DurationNanos is the time the samples cover.
		DurationNanos: (*cp.EndTime - *cp.StartTime) * 1000,
	}
	if p.DurationNanos < 0 {
		return nil, errorf(name, ".cpuprofile: endTime %d is before startTime %d", *cp.EndTime, *cp.StartTime)
	}
	b := newLocationBuilder(p)
	byNode := make(map[int64]*profile.Sample)
	t := *cp.StartTime
	for i, id := range cp.Samples {
		t += cp.TimeDeltas[i]
		next := *cp.EndTime
		if i+1 < len(cp.Samples) {
			next = t + cp.TimeDeltas[i+1]
		}
		d := max(next-t, 0)
		frames, ok := stacks[id]
		if !ok {
			return nil, errorf(name, ".cpuprofile: sample %d names node %d, which is not in \"nodes\"", i, id)
		}
		s := byNode[id]
		if s == nil {
			s = &profile.Sample{Value: []int64{0, 0}, Location: b.locations(frames)}
			byNode[id] = s
			p.Sample = append(p.Sample, s)
		}
		s.Value[0]++
		s.Value[1] += d * 1000
	}
	return p, nil
}

// nodeStacks returns each node's frames, leaf first, the "(root)" node left
// out; it refuses unknown ids, nodes with two parents and cycles.
func nodeStacks(name string, nodes []cpuNode) (map[int64][]*frame, error) {
	byID := make(map[int64]*cpuNode, len(nodes))
	for i := range nodes {
		n := &nodes[i]
		if n.CallFrame == nil {
			return nil, errorf(name, ".cpuprofile: node %d has no \"callFrame\"", n.ID)
		}
		if byID[n.ID] != nil {
			return nil, errorf(name, ".cpuprofile: node id %d appears twice", n.ID)
		}
		byID[n.ID] = n
	}
	parent := make(map[int64]int64, len(nodes))
	for _, n := range nodes {
		for _, c := range n.Children {
			if byID[c] == nil {
				return nil, errorf(name, ".cpuprofile: node %d has child %d, which is not in \"nodes\"", n.ID, c)
			}
			if p, ok := parent[c]; ok && p != n.ID {
				return nil, errorf(name, ".cpuprofile: node %d has two parents, %d and %d", c, p, n.ID)
			}
			parent[c] = n.ID
		}
		if n.Parent != nil {
			if byID[*n.Parent] == nil {
				return nil, errorf(name, ".cpuprofile: node %d has parent %d, which is not in \"nodes\"", n.ID, *n.Parent)
			}
			parent[n.ID] = *n.Parent
		}
	}
	stacks := make(map[int64][]*frame, len(nodes))
	for _, n := range nodes {
		var fs []*frame
		id := n.ID
		for depth := 0; ; depth++ {
			if depth > len(nodes) {
				return nil, errorf(name, ".cpuprofile: the parents of node %d make a cycle", n.ID)
			}
			cur := byID[id]
			p, hasParent := parent[id]
			if hasParent || cur.CallFrame.FunctionName != "(root)" {
				fs = append(fs, cur.CallFrame)
			}
			if !hasParent {
				break
			}
			id = p
		}
		stacks[n.ID] = fs
	}
	return stacks, nil
}

// locationBuilder makes one pprof location and function per frame key.
type locationBuilder struct {
	p    *profile.Profile
	locs map[frame]*profile.Location
}

func newLocationBuilder(p *profile.Profile) *locationBuilder {
	return &locationBuilder{p: p, locs: make(map[frame]*profile.Location)}
}

func (b *locationBuilder) locations(frames []*frame) []*profile.Location {
	out := make([]*profile.Location, len(frames))
	for i, f := range frames {
		loc, ok := b.locs[*f]
		if !ok {
			fname := f.FunctionName
			if fname == "" {
				fname = "(anonymous)"
			}
			fn := &profile.Function{ID: uint64(len(b.p.Function) + 1), Name: fname, SystemName: fname, Filename: f.URL, StartLine: f.LineNumber + 1}
			loc = &profile.Location{ID: uint64(len(b.p.Location) + 1), Line: []profile.Line{{Function: fn, Line: f.LineNumber + 1, Column: f.ColumnNumber + 1}}}
			b.p.Function = append(b.p.Function, fn)
			b.p.Location = append(b.p.Location, loc)
			b.locs[*f] = loc
		}
		out[i] = loc
	}
	return out
}
