// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"path/filepath"
	"sort"

	"github.com/google/pprof/profile"
)

// lineCost is one source line's self and total, as `go tool pprof -list`
// counts them.
type lineCost struct {
	Self, Total int64
}

// functionFile is what a profile recorded of one function in one file.
type functionFile struct {
	// Path is the file as the profile names it (cleaned, as pprof cleans it).
	Path string
	// StartLine is the line the function's declaration starts on, 0 when
	// the profile does not say.
	StartLine int64
	Lines     map[int64]*lineCost
}

// functionLines sums a function's samples per file and line as
// `go tool pprof -list` does at lines granularity: a sample's self goes to
// the innermost line of its leaf location; its total to every line of the
// function it passes through, once per sample however often it recurses.
// Inlined frames are lines of their own function, so a call inlined into
// fn counts at fn's line of the call, as pprof shows it.
func functionLines(p *profile.Profile, fn string, sampleIndex int) []*functionFile {
	byPath := map[string]*functionFile{}
	var order []*functionFile
	type key struct {
		path string
		line int64
	}
	seen := map[key]bool{}
	for _, s := range p.Sample {
		v := s.Value[sampleIndex]
		clear(seen)
		for li, loc := range s.Location {
			for k, ln := range loc.Line {
				if ln.Function == nil || ln.Function.Name != fn {
					continue
				}
				path := ln.Function.Filename
				if path != "" {
					path = filepath.Clean(path)
				}
				ff := byPath[path]
				if ff == nil {
					ff = &functionFile{Path: path, StartLine: ln.Function.StartLine, Lines: map[int64]*lineCost{}}
					byPath[path] = ff
					order = append(order, ff)
				}
				c := ff.Lines[ln.Line]
				if c == nil {
					c = &lineCost{}
					ff.Lines[ln.Line] = c
				}
				if li == 0 && k == 0 {
					c.Self += v
				}
				if kk := (key{path, ln.Line}); !seen[kk] {
					seen[kk] = true
					c.Total += v
				}
			}
		}
	}
	// The file holding most of the function's time first.
	sort.SliceStable(order, func(i, j int) bool { return maxTotal(order[i]) > maxTotal(order[j]) })
	return order
}

func maxTotal(f *functionFile) int64 {
	var m int64
	for _, c := range f.Lines {
		m = max(m, c.Total)
	}
	return m
}

// lineSpan is the range of lines pprof prints for a function's lines:
// five around the first and last sampled line, from the declaration when
// the profile records it.
func (f *functionFile) lineSpan() (first, last int64) {
	const margin = 5
	first, last = -1, 0
	for l := range f.Lines {
		if first < 0 || l < first {
			first = l
		}
		last = max(last, l)
	}
	first -= margin
	if f.StartLine > 0 && f.StartLine < first {
		first = f.StartLine
	}
	return max(first, 1), last + margin
}

// sampleIndexOf is the index of the profile type's sample type (type and
// unit), else the last one, as pprof defaults to it.
func sampleIndexOf(p *profile.Profile, sampleType, unit string) int {
	for i, st := range p.SampleType {
		if st.Type == sampleType && st.Unit == unit {
			return i
		}
	}
	for i, st := range p.SampleType {
		if st.Type == sampleType {
			return i
		}
	}
	return len(p.SampleType) - 1
}
