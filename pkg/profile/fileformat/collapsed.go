// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package fileformat

import (
	"bufio"
	"bytes"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/google/pprof/profile"
)

// maxCollapsedLine bounds one line of collapsed stacks (a stack of
// thousands of long C++ names fits).
const maxCollapsedLine = 16 << 20

// ParseCollapsed reads collapsed (folded) stacks, "root;child;leaf 42" per
// line as stackcollapse scripts and many profilers write them, into a
// profile with one sample type, samples:count, one sample per line. Empty
// lines are skipped; any other line not of that shape is refused with its
// number.
func ParseCollapsed(name string, text []byte) (*profile.Profile, error) {
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}},
		PeriodType: &profile.ValueType{Type: "samples", Unit: "count"},
		Period:     1,
	}
	locs := make(map[string]*profile.Location)
	sc := bufio.NewScanner(bytes.NewReader(text))
	sc.Buffer(make([]byte, 64<<10), maxCollapsedLine)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		if !utf8.ValidString(line) {
			return nil, errorf(name, "collapsed stacks: line %d is not valid UTF-8: %+q", n, clip(line))
		}
		sp := strings.LastIndexByte(line, ' ')
		if sp <= 0 {
			return nil, errorf(name, "collapsed stacks: line %d: want \"frame;frame;... count\", got %q", n, clip(line))
		}
		v, err := strconv.ParseInt(line[sp+1:], 10, 64)
		if err != nil || v < 0 {
			return nil, errorf(name, "collapsed stacks: line %d: the count %q is not a non-negative integer", n, clip(line[sp+1:]))
		}
		frames := strings.Split(strings.TrimSpace(line[:sp]), ";")
		s := &profile.Sample{Value: []int64{v}, Location: make([]*profile.Location, 0, len(frames))}
		for i := len(frames) - 1; i >= 0; i-- {
			f := frames[i]
			if f == "" {
				return nil, errorf(name, "collapsed stacks: line %d: frame %d has an empty name", n, i+1)
			}
			loc, ok := locs[f]
			if !ok {
				fn := &profile.Function{ID: uint64(len(p.Function) + 1), Name: f}
				loc = &profile.Location{ID: uint64(len(p.Location) + 1), Line: []profile.Line{{Function: fn}}}
				p.Function = append(p.Function, fn)
				p.Location = append(p.Location, loc)
				locs[f] = loc
			}
			s.Location = append(s.Location, loc)
		}
		p.Sample = append(p.Sample, s)
	}
	if err := sc.Err(); err != nil {
		return nil, errorf(name, "collapsed stacks: line %d: %v", n+1, err)
	}
	return p, nil
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}
