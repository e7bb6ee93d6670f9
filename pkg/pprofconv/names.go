// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package pprofconv

import (
	"fmt"
	"strings"

	"github.com/google/pprof/profile"
)

// shapeMarker starts a generic shape section in a Go function name.
const shapeMarker = "[go.shape."

// FunctionName returns name without its Go generic shape sections, as
// Pyroscope shows it: "slices.Sort[go.shape.int]" becomes "slices.Sort" and
// "main.Map[go.shape.string,go.shape.int].func1" becomes "main.Map.func1".
// Brackets inside a shape section (go.shape.[]int) are matched.
func FunctionName(name string) string {
	// IndexByte is much faster than a substring search, and most names
	// have no bracket at all.
	if strings.IndexByte(name, '[') < 0 || !strings.Contains(name, shapeMarker) {
		return name
	}
	var b strings.Builder
	b.Grow(len(name))
	for {
		i := strings.Index(name, shapeMarker)
		if i < 0 {
			b.WriteString(name)
			return b.String()
		}
		b.WriteString(name[:i])
		depth, j := 0, i
		for ; j < len(name); j++ {
			switch name[j] {
			case '[':
				depth++
			case ']':
				depth--
			}
			if depth == 0 {
				break
			}
		}
		if j >= len(name) {
			// Unbalanced: drop the rest, it is all shape.
			return b.String()
		}
		name = name[j+1:]
	}
}

// lineName is the frame name of one line of a location.
func lineName(ln profile.Line) string {
	if ln.Function == nil || ln.Function.Name == "" {
		return "unknown"
	}
	return FunctionName(ln.Function.Name)
}

// addressName names a location that has no line information.
func addressName(loc *profile.Location) string { return addressFrame(loc.Address) }

// addressFrame is the frame name of an address without line information.
func addressFrame(address uint64) string { return fmt.Sprintf("0x%x", address) }

// LocationFrames appends the frame names of loc, leaf first: the innermost
// inlined function first, the caller last.
func LocationFrames(dst []string, loc *profile.Location) []string {
	if len(loc.Line) == 0 {
		return append(dst, addressName(loc))
	}
	for _, ln := range loc.Line {
		dst = append(dst, lineName(ln))
	}
	return dst
}
