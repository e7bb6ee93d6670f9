// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package pprofconv

import (
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/google/pprof/profile"

	"github.com/emberscope/emberscope/pkg/profile/flame"
	"github.com/emberscope/emberscope/pkg/profile/model"
)

// GranularTree builds the call tree of sample type sampleIndex of p with one
// frame per function, per source line or per source file, as pprof's
// -functions, -lines and -files granularities aggregate:
//
//   - every Line of every Location is a frame, Location[0].Line[0] the leaf
//     (an inlined call is a frame of its own, on its own line);
//   - at lines a frame is named "pkg.Func file.go:123": the function's name
//     with Go generic shape sections removed (model.FunctionName), the base
//     name of its file and the line; a line without a number drops ":123",
//     one without a file keeps only ":123";
//   - at files a frame is the function's file as the profile spells it
//     (path.Clean'd), or the function's name when the profile names no file;
//   - a location without lines is its address, "0x4a3f20".
//
// At functions it is the same tree as ToTree. Zero values are skipped.
func GranularTree(p *profile.Profile, sampleIndex int, g model.Granularity) (*flame.Tree, error) {
	if sampleIndex < 0 || sampleIndex >= len(p.SampleType) {
		return nil, fmt.Errorf("sample index %d out of range: the profile has %d sample types", sampleIndex, len(p.SampleType))
	}
	var name func(profile.Line) string
	switch g {
	case model.GranularityFunctions, "":
		name = lineName
	case model.GranularityLines:
		name = LineFrame
	case model.GranularityFiles:
		name = FileFrame
	default:
		return nil, fmt.Errorf("unknown granularity %q", g)
	}
	t := flame.New()
	// frames caches each location's frame name ids, leaf first.
	frames := make(map[*profile.Location][]int32, len(p.Location))
	ids := make(map[string]int32)
	intern := func(s string) int32 {
		if id, ok := ids[s]; ok {
			return id
		}
		id := t.Intern(s)
		ids[s] = id
		return id
	}
	var stack []int32
	for si, s := range p.Sample {
		if len(s.Value) != len(p.SampleType) {
			return nil, fmt.Errorf("sample %d has %d values, the profile has %d sample types", si, len(s.Value), len(p.SampleType))
		}
		v := s.Value[sampleIndex]
		if v == 0 {
			continue
		}
		stack = stack[:0]
		for li := len(s.Location) - 1; li >= 0; li-- {
			loc := s.Location[li]
			if loc == nil {
				return nil, fmt.Errorf("sample %d has a missing location", si)
			}
			fs, ok := frames[loc]
			if !ok {
				if len(loc.Line) == 0 {
					fs = []int32{intern(addressName(loc))}
				} else {
					fs = make([]int32, len(loc.Line))
					for i, ln := range loc.Line {
						fs[i] = intern(name(ln))
					}
				}
				frames[loc] = fs
			}
			for j := len(fs) - 1; j >= 0; j-- {
				stack = append(stack, fs[j])
			}
		}
		t.InsertStack(flame.Root, v, stack)
	}
	return t, nil
}

// LineFrame is the frame name of one line at lines granularity:
// "pkg.Func file.go:123".
func LineFrame(ln profile.Line) string {
	fn := lineName(ln)
	file := ""
	if ln.Function != nil {
		file = baseName(ln.Function.Filename)
	}
	switch {
	case ln.Line != 0:
		return fn + " " + file + ":" + strconv.FormatInt(ln.Line, 10)
	case file != "":
		return fn + " " + file
	default:
		return fn
	}
}

// FileFrame is the frame name of one line at files granularity: its
// function's file, or the function's name when there is no file.
func FileFrame(ln profile.Line) string {
	if ln.Function == nil || ln.Function.Filename == "" {
		return lineName(ln)
	}
	return path.Clean(strings.ReplaceAll(ln.Function.Filename, `\`, "/"))
}

// baseName is the last element of a slash or backslash separated path.
func baseName(file string) string {
	if i := strings.LastIndexAny(file, `/\`); i >= 0 {
		return file[i+1:]
	}
	return file
}

// SampleIndexOf returns the index of p's sample type that profile type
// typeID names: the one with its sample type and unit, or p's only one.
func SampleIndexOf(p *profile.Profile, typeID string) (int, error) {
	t, err := model.ParseProfileType(typeID)
	if err != nil {
		return 0, err
	}
	for i, st := range p.SampleType {
		if st.Type == t.SampleType && st.Unit == t.SampleUnit {
			return i, nil
		}
	}
	if len(p.SampleType) == 1 {
		return 0, nil
	}
	have := make([]string, len(p.SampleType))
	for i, st := range p.SampleType {
		have[i] = st.Type + ":" + st.Unit
	}
	return 0, fmt.Errorf("the merged profile has no sample type %s:%s (it has %s)", t.SampleType, t.SampleUnit, strings.Join(have, ", "))
}
