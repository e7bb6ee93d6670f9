// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package pprofconv

import (
	"fmt"
	"slices"
	"sort"

	"github.com/google/pprof/profile"

	"github.com/emberscope/emberscope/pkg/profile/model"
)

// Sample is the summed value of one distinct stack.
type Sample struct {
	// Stack indexes Result.Stacks.
	Stack int32
	Value int64
	// SpanID and TraceID are the sample's span_id and trace_id labels
	// (hex, as otel-profiling-go writes them) as numbers; zero when the
	// sample has none. They are not series labels (as in Pyroscope).
	SpanID  uint64
	TraceID TraceID
}

// TraceID is a 16-byte trace id; the zero value means none.
type TraceID [16]byte

// Sample label names kept on the samples instead of in the series labels.
const (
	LabelNameSpanID  = "span_id"
	LabelNameTraceID = "trace_id"
)

// Series holds the samples of one sample type that share one set of
// sample labels.
type Series struct {
	Type model.ProfileType
	// SampleIndex is the index of the sample type in the source profile.
	SampleIndex int
	// Labels are the pprof string sample labels, sorted by name.
	Labels model.Labels
	// Samples has one entry per distinct stack, span id and trace id, in
	// first-seen order, no zero values.
	Samples []Sample
	// Total is the sum of the sample values.
	Total int64
}

// Result is a converted profile: frames and stacks shared by all series.
type Result struct {
	// Names are the distinct strings of the frames: function names, file
	// names, mapping files and build ids.
	Names []string
	// Frames are the distinct frames (function, file, line, mapping).
	Frames []Frame
	// Stacks are the distinct stacks, root first, as indexes into Frames.
	Stacks [][]int32
	// Series are sorted by profile type ID, then labels.
	Series []Series
}

// Options tune Convert.
type Options struct {
	Naming Naming
}

// Convert turns p into per-type, per-label-set series of deduplicated stacks.
// It fails on sample label names that cannot be series label names.
func Convert(p *profile.Profile, opts Options) (*Result, error) {
	c := converter{
		res:      &Result{},
		nameIDs:  make(map[string]int32),
		frameIDs: make(map[Frame]int32),
		stackIDs: make(map[string]int32),
		locs:     make(map[uint64][]int32, len(p.Location)),
	}
	types := make([]model.ProfileType, len(p.SampleType))
	for i := range p.SampleType {
		types[i] = opts.Naming.TypeOf(p, i)
	}
	type seriesKey struct {
		typ    int
		labels string
	}
	index := make(map[seriesKey]int)
	type sampleKey struct {
		series, stack int32
		span          uint64
		trace         TraceID
	}
	seen := make(map[sampleKey]int) // -> sample index
	for si, s := range p.Sample {
		if len(s.Value) != len(p.SampleType) {
			return nil, fmt.Errorf("sample %d has %d values, the profile has %d sample types", si, len(s.Value), len(p.SampleType))
		}
		labels, key, span, trace, err := sampleLabels(s)
		if err != nil {
			return nil, fmt.Errorf("sample %d: %w", si, err)
		}
		stack := int32(-1)
		for ti, v := range s.Value {
			if v == 0 {
				continue
			}
			if stack < 0 {
				stack = c.stack(s)
			}
			k := seriesKey{ti, key}
			sidx, ok := index[k]
			if !ok {
				sidx = len(c.res.Series)
				index[k] = sidx
				c.res.Series = append(c.res.Series, Series{
					Type: types[ti], SampleIndex: ti, Labels: labels,
				})
			}
			ser := &c.res.Series[sidx]
			ser.Total += v
			sk := sampleKey{int32(sidx), stack, span, trace}
			if at, ok := seen[sk]; ok {
				ser.Samples[at].Value += v
				continue
			}
			seen[sk] = len(ser.Samples)
			ser.Samples = append(ser.Samples, Sample{Stack: stack, Value: v, SpanID: span, TraceID: trace})
		}
	}
	// Summed values may cancel out (delta profiles); drop what became zero.
	for i := range c.res.Series {
		c.res.Series[i].Samples = slices.DeleteFunc(c.res.Series[i].Samples, func(s Sample) bool { return s.Value == 0 })
	}
	c.res.Series = slices.DeleteFunc(c.res.Series, func(s Series) bool { return len(s.Samples) == 0 })
	sort.SliceStable(c.res.Series, func(a, b int) bool {
		sa, sb := &c.res.Series[a], &c.res.Series[b]
		if sa.SampleIndex != sb.SampleIndex {
			return sa.SampleIndex < sb.SampleIndex
		}
		return model.CompareLabels(sa.Labels, sb.Labels) < 0
	})
	return c.res, nil
}

// Frame is one line of a location: its function's name, the file and
// line, and the mapping (binary file and build id) of the location. The
// strings index Result.Names; -1 is none.
type Frame struct {
	Name    int32
	File    int32
	Line    int64
	MapFile int32
	BuildID int32
	// Inlined tells that the frame was inlined into its caller: it and
	// the next frame toward the root are lines of one location.
	Inlined bool
	// StartLine is the first line of the frame's function (0: unknown).
	StartLine int64
}

type converter struct {
	res      *Result
	frameIDs map[Frame]int32
	nameIDs  map[string]int32
	stackIDs map[string]int32
	// locs caches each location's frame ids, leaf first.
	locs map[uint64][]int32
	buf  []int32
	key  []byte
}

func (c *converter) name(s string) int32 {
	if id, ok := c.nameIDs[s]; ok {
		return id
	}
	id := int32(len(c.res.Names))
	c.res.Names = append(c.res.Names, s)
	c.nameIDs[s] = id
	return id
}

func (c *converter) location(loc *profile.Location) []int32 {
	if ids, ok := c.locs[loc.ID]; ok {
		return ids
	}
	mapFile, buildID := int32(-1), int32(-1)
	if m := loc.Mapping; m != nil {
		if m.File != "" {
			mapFile = c.name(m.File)
		}
		if m.BuildID != "" {
			buildID = c.name(m.BuildID)
		}
	}
	var ids []int32
	if len(loc.Line) == 0 {
		ids = []int32{c.frame(Frame{Name: c.name(addressName(loc)), File: -1, MapFile: mapFile, BuildID: buildID})}
	} else {
		ids = make([]int32, len(loc.Line))
		for i, ln := range loc.Line {
			f := Frame{Name: c.name(lineName(ln)), File: -1, Line: ln.Line, MapFile: mapFile, BuildID: buildID, Inlined: i < len(loc.Line)-1}
			if ln.Function != nil {
				if ln.Function.Filename != "" {
					f.File = c.name(ln.Function.Filename)
				}
				f.StartLine = ln.Function.StartLine
			}
			ids[i] = c.frame(f)
		}
	}
	if loc.ID != 0 {
		c.locs[loc.ID] = ids
	}
	return ids
}

func (c *converter) frame(f Frame) int32 {
	if id, ok := c.frameIDs[f]; ok {
		return id
	}
	id := int32(len(c.res.Frames))
	c.res.Frames = append(c.res.Frames, f)
	c.frameIDs[f] = id
	return id
}

// stack returns the id of s's stack, root first, adding it when new.
func (c *converter) stack(s *profile.Sample) int32 {
	c.buf = c.buf[:0]
	for li := len(s.Location) - 1; li >= 0; li-- {
		ids := c.location(s.Location[li])
		for j := len(ids) - 1; j >= 0; j-- {
			c.buf = append(c.buf, ids[j])
		}
	}
	c.key = c.key[:0]
	for _, id := range c.buf {
		c.key = append(c.key, byte(id), byte(id>>8), byte(id>>16), byte(id>>24))
	}
	if id, ok := c.stackIDs[string(c.key)]; ok {
		return id
	}
	id := int32(len(c.res.Stacks))
	c.res.Stacks = append(c.res.Stacks, slices.Clone(c.buf))
	c.stackIDs[string(c.key)] = id
	return id
}

// sampleLabels returns the string labels of s sorted by name and a key for
// them, without span_id and trace_id, which it returns parsed (zero when
// absent or not hex of their size: such a label is dropped, as it cannot
// select anything).
func sampleLabels(s *profile.Sample) (model.Labels, string, uint64, TraceID, error) {
	var span uint64
	var trace TraceID
	if len(s.Label) == 0 {
		return nil, "", 0, trace, nil
	}
	labels := make(model.Labels, 0, len(s.Label))
	for k, vs := range s.Label {
		if len(vs) == 0 || vs[0] == "" {
			continue
		}
		name, err := SanitizeLabelName(k)
		if err != nil {
			return nil, "", 0, trace, err
		}
		switch name {
		case LabelNameSpanID:
			span, _ = ParseSpanID(vs[0])
			continue
		case LabelNameTraceID:
			trace, _ = ParseTraceID(vs[0])
			continue
		}
		labels = append(labels, model.Label{Name: name, Value: vs[0]})
	}
	sort.Slice(labels, func(a, b int) bool { return labels[a].Name < labels[b].Name })
	return labels, labels.Key(), span, trace, nil
}

// SanitizeLabelName turns a label name into a valid series label name, as
// Pyroscope does by default: dots become underscores; any other character
// outside [a-zA-Z0-9_] (or a leading digit) is an error.
func SanitizeLabelName(name string) (string, error) {
	if name == "" {
		return "", fmt.Errorf("empty label name")
	}
	out := []byte(name)
	for i, r := range name {
		switch {
		case r == '.':
			out[i] = '_'
		case r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z':
		case r >= '0' && r <= '9' && i > 0:
		default:
			return "", fmt.Errorf("invalid label name %q: character %q at offset %d is not allowed (use [a-zA-Z_][a-zA-Z0-9_.]*)", name, r, i)
		}
	}
	return string(out), nil
}
