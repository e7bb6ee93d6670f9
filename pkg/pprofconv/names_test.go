// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package pprofconv

import "testing"

func TestFunctionNameRemovesShapes(t *testing.T) {
	cases := map[string]string{
		"slices.Sort[go.shape.int]":                    "slices.Sort",
		"main.Map[go.shape.string,go.shape.int].func1": "main.Map.func1",
		"main.(*Set[go.shape.struct { a int }]).Add":   "main.(*Set).Add",
		"main.F[go.shape.[]int]":                       "main.F",
		"main.plain":                                   "main.plain",
		"main.G[...]":                                  "main.G[...]",
		"main.broken[go.shape.int":                     "main.broken",
		"a[go.shape.int].b[go.shape.map[string]int].c": "a.b.c",
	}
	for in, want := range cases {
		if got := FunctionName(in); got != want {
			t.Errorf("FunctionName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSanitizeLabelName(t *testing.T) {
	if got, err := SanitizeLabelName("otel.scope.name"); err != nil || got != "otel_scope_name" {
		t.Fatalf("got %q, %v", got, err)
	}
	for _, bad := range []string{"", "process-description", "1abc", "a b"} {
		if _, err := SanitizeLabelName(bad); err == nil {
			t.Errorf("SanitizeLabelName(%q) accepted an invalid name", bad)
		}
	}
}
