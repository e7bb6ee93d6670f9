// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package pproforacle

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// Peek is one function's entry of `go tool pprof -peek`: its flat and cum,
// and the value of each edge from a caller and to a callee, by Pyroscope's
// names (see PyroscopeName).
type Peek struct {
	Flat, Cum        int64
	Callers, Callees map[string]int64
}

// PeekOf runs `go tool pprof -peek '^name$'` with args (a -sample_index and
// a -unit that prints whole numbers, such as -unit=B) on the profile file
// at path and returns the function's entry.
func PeekOf(tb testing.TB, path, name string, args ...string) Peek {
	tb.Helper()
	out := Output(tb, path, append([]string{"-peek", "^" + regexp.QuoteMeta(name) + "$"}, args...)...)
	p, err := ParsePeek(out, name)
	if err != nil {
		tb.Fatalf("pprof -peek of %s in %s: %v", name, path, err)
	}
	return p
}

// ParsePeek reads name's entry of a pprof -peek report: the block whose
// line with five values (flat, flat%, sum%, cum, cum%) is the function's;
// the lines with two values above it are its callers, those below its
// callees.
func ParsePeek(report, name string) (Peek, error) {
	var (
		p       Peek
		callers = map[string]int64{}
		callees = map[string]int64{}
		seen    bool
	)
	for _, block := range strings.Split(report, "----------+-------------") {
		p, callers, callees, seen = Peek{}, map[string]int64{}, map[string]int64{}, false
		for _, line := range strings.Split(block, "\n") {
			bar := strings.LastIndex(line, "|")
			if bar < 0 {
				continue
			}
			values, frame := strings.Fields(line[:bar]), PyroscopeName(strings.TrimSpace(line[bar+1:]))
			switch len(values) {
			case 5:
				if frame != name {
					continue
				}
				flat, err1 := wholeValue(values[0])
				cum, err2 := wholeValue(values[3])
				if err1 != nil || err2 != nil {
					return Peek{}, fmt.Errorf("unreadable peek line %q", line)
				}
				p.Flat, p.Cum, seen = flat, cum, true
			case 2:
				v, err := wholeValue(values[0])
				if err != nil {
					return Peek{}, fmt.Errorf("unreadable peek line %q", line)
				}
				if seen {
					callees[frame] += v
				} else {
					callers[frame] += v
				}
			}
		}
		if seen {
			p.Callers, p.Callees = callers, callees
			return p, nil
		}
	}
	return Peek{}, fmt.Errorf("no entry for %s", name)
}
