// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package pproforacle

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// Trace is one sample as `go tool pprof -traces` prints it: its value and
// its stack, root first, in Pyroscope's names (see PyroscopeName).
type Trace struct {
	Value int64
	Stack []string
}

// Traces runs `go tool pprof -traces -taghide=.` with args (a -sample_index
// and a -unit that prints whole numbers, such as -unit=B or -unit=ns) on the
// profile file at path and returns its samples, those of value 0 left out.
func Traces(tb testing.TB, path string, args ...string) []Trace {
	tb.Helper()
	out := Output(tb, path, append([]string{"-traces", "-taghide=."}, args...)...)
	traces, err := ParseTraces(out)
	if err != nil {
		tb.Fatalf("pprof -traces of %s: %v", path, err)
	}
	return traces
}

// ParseTraces reads the report of pprof -traces: blocks separated by a
// "-----------+---" line, each a value and a leaf frame on the first line
// (the value right-aligned in 10 columns) and one caller per line after.
func ParseTraces(report string) ([]Trace, error) {
	const sep = "-----------+"
	var (
		out   []Trace
		cur   *Trace
		leafs []string
	)
	flush := func() {
		if cur != nil && cur.Value != 0 {
			for i := len(leafs) - 1; i >= 0; i-- {
				cur.Stack = append(cur.Stack, leafs[i])
			}
			out = append(out, *cur)
		}
		cur, leafs = nil, nil
	}
	started := false
	for _, line := range strings.Split(report, "\n") {
		if strings.HasPrefix(line, sep) {
			flush()
			started = true
			continue
		}
		if !started || strings.TrimSpace(line) == "" {
			continue
		}
		if len(line) < 13 {
			return nil, fmt.Errorf("line %q is not a trace line", line)
		}
		frame := line
		// a value is right-aligned in 10 columns, a wider one pushes the frame
		// right: a line that starts with fewer than 10 spaces holds a value
		if indent := len(line) - len(strings.TrimLeft(line, " ")); indent < 10 {
			v, rest, _ := strings.Cut(line[indent:], " ")
			if cur != nil {
				return nil, fmt.Errorf("two values in one trace: %q", line)
			}
			n, err := wholeValue(v)
			if err != nil {
				return nil, err
			}
			cur = &Trace{Value: n}
			frame = rest
		}
		if cur == nil {
			return nil, fmt.Errorf("frame line %q before a value", line)
		}
		leafs = append(leafs, PyroscopeName(withoutInlineMark(strings.TrimSpace(frame))))
	}
	flush()
	return out, nil
}

// wholeValue reads a value such as "24B" or "10000000ns": a whole number and
// its unit.
func wholeValue(s string) (int64, error) {
	end := len(s)
	for end > 0 && (s[end-1] < '0' || s[end-1] > '9') {
		end--
	}
	n, err := strconv.ParseInt(s[:end], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("value %q is not a whole number with a unit (ask pprof for a -unit without scaling)", s)
	}
	return n, nil
}
