// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package model

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestFunctionNameAsPyroscopeShowsIt: the generic shape sections Pyroscope
// v2.2.1 removes from Go function names, and names it keeps.
func TestFunctionNameAsPyroscopeShowsIt(t *testing.T) {
	for in, want := range map[string]string{
		"main.main": "main.main",
		"slices.Sort[go.shape.[]int,go.shape.int]":     "slices.Sort",
		"slices.pdqsortOrdered[go.shape.int]":          "slices.pdqsortOrdered",
		"main.Map[go.shape.string,go.shape.int].func1": "main.Map.func1",
		"pkg.F[go.shape.struct { A []int }]":           "pkg.F",
		"pkg.(*T[go.shape.int]).M":                     "pkg.(*T).M",
		"pkg.G[go.shape.int]-range1":                   "pkg.G-range1",
		"pkg.Broken[go.shape.int":                      "pkg.Broken",
		"":                                             "unknown",
		"main.Plain[int]":                              "main.Plain[int]",
		"main.(*Set[go.shape.struct { a int }]).Add":   "main.(*Set).Add",
		"main.F[go.shape.[]int]":                       "main.F",
		"main.G[...]":                                  "main.G[...]",
		"a[go.shape.int].b[go.shape.map[string]int].c": "a.b.c",
	} {
		assert.Equal(t, want, FunctionName(in), in)
	}
}
