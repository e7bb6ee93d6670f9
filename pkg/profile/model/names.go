// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package model

import "strings"

// shapeMarker starts a generic shape section in a Go function name.
const shapeMarker = "[go.shape."

// UnknownFunction names a frame whose function has no name.
const UnknownFunction = "unknown"

// FunctionName returns a function name as Pyroscope shows it, without its Go
// generic shape sections: "slices.Sort[go.shape.int]" becomes "slices.Sort"
// and "main.Map[go.shape.string,go.shape.int].func1" becomes "main.Map.func1".
// Brackets inside a shape section (go.shape.[]int) are matched; an unbalanced
// section is dropped to the end. An empty name is UnknownFunction.
func FunctionName(name string) string {
	if name == "" {
		return UnknownFunction
	}
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
