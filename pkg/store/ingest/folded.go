// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package ingest

import (
	"bufio"
	"bytes"
	"strconv"
	"strings"

	"github.com/google/pprof/profile"
)

// foldedType is the sample type and period a folded profile's units map to.
type foldedType struct {
	sample, sampleUnit, period, periodUnit string
	hint                                   string
}

// foldedTypes maps the ingest units parameter of folded profiles onto
// Pyroscope's profile types.
var foldedTypes = map[string]foldedType{
	"":                 {"cpu", "nanoseconds", "cpu", "nanoseconds", ""},
	"samples":          {"cpu", "nanoseconds", "cpu", "nanoseconds", ""},
	"objects":          {"alloc_objects", "count", "space", "bytes", ""},
	"bytes":            {"alloc_space", "bytes", "space", "bytes", ""},
	"goroutines":       {"goroutine", "count", "goroutine", "count", ""},
	"lock_samples":     {"contentions", "count", "contentions", "count", "mutex"},
	"lock_nanoseconds": {"delay", "nanoseconds", "contentions", "count", "mutex"},
}

// ParseFolded parses collapsed stacks ("root;child;leaf 42" per line) into a
// profile. CPU samples are scaled to nanoseconds with sampleRate (Hz).
func ParseFolded(data []byte, units string, sampleRate int64) (*profile.Profile, map[string]string, error) {
	ft, ok := foldedTypes[units]
	if !ok {
		return nil, nil, errorf(ReasonBadFormat, "unsupported units %q for folded profiles (want samples, objects, bytes, goroutines, lock_samples or lock_nanoseconds)", units)
	}
	scale := int64(1)
	if ft.sample == "cpu" {
		if sampleRate <= 0 {
			return nil, nil, errorf(ReasonBadFormat, "invalid sampleRate %d: must be positive", sampleRate)
		}
		scale = 1e9 / sampleRate
	}
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: ft.sample, Unit: ft.sampleUnit}},
		PeriodType: &profile.ValueType{Type: ft.period, Unit: ft.periodUnit},
		Period:     scale,
	}
	funcs := make(map[string]*profile.Location)
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			continue
		}
		i := strings.LastIndexByte(text, ' ')
		if i <= 0 {
			return nil, nil, errorf(ReasonBadProfile, "invalid folded profile: line %d: want \"frame;frame;... value\", got %q", line, clip(text))
		}
		v, err := strconv.ParseInt(text[i+1:], 10, 64)
		if err != nil || v < 0 {
			return nil, nil, errorf(ReasonBadProfile, "invalid folded profile: line %d: value %q is not a non-negative integer", line, clip(text[i+1:]))
		}
		frames := strings.Split(strings.TrimSpace(text[:i]), ";")
		s := &profile.Sample{Value: []int64{v * scale}}
		for j := len(frames) - 1; j >= 0; j-- {
			name := frames[j]
			if name == "" {
				return nil, nil, errorf(ReasonBadProfile, "invalid folded profile: line %d: empty frame name", line)
			}
			loc, ok := funcs[name]
			if !ok {
				fn := &profile.Function{ID: uint64(len(p.Function) + 1), Name: name}
				loc = &profile.Location{ID: uint64(len(p.Location) + 1), Line: []profile.Line{{Function: fn}}}
				p.Function = append(p.Function, fn)
				p.Location = append(p.Location, loc)
				funcs[name] = loc
			}
			s.Location = append(s.Location, loc)
		}
		p.Sample = append(p.Sample, s)
	}
	if err := sc.Err(); err != nil {
		return nil, nil, errorf(ReasonBadProfile, "invalid folded profile: line %d: %v", line+1, err)
	}
	var hints map[string]string
	if ft.hint != "" {
		hints = map[string]string{ft.sample: ft.hint}
	}
	return p, hints, nil
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}
