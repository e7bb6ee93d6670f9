// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package query

import (
	"regexp"
	"strings"
)

//go:generate go run ./genfunctions -o ../../../src/datasource/language/functions.json

// The built-in functions of the language (docs/design.md §4). The editor's
// list is generated from this table: run `go generate ./pkg/datasource/query` after
// changing it.
func init() {
	Register(&Function{
		Name:   "frames_from_label",
		Doc:    "Inserts virtual frames made from the values of the labels at the base of every stack; sep splits a value into nested frames.",
		Params: []Param{{Name: "label", Kind: ArgString, Variadic: true}},
		Named:  []Param{{Name: "sep", Kind: ArgString}},
		Build:  buildFramesFromLabel,
	})
	Register(&Function{
		Name:  "reverse",
		Doc:   "Turns the flamegraph upside down: leaf functions at the base, their callers above.",
		Build: func(*Args) (Op, error) { return Reverse{}, nil },
	})
	Register(&Function{
		Name:   "focus",
		Doc:    "Keeps the stacks through frames whose name matches the regular expression, rooted at those frames.",
		Params: []Param{{Name: "regex", Kind: ArgString}},
		Build: func(a *Args) (Op, error) {
			re, err := compilePattern(a)
			if err != nil {
				return nil, err
			}
			return Focus{Pattern: re}, nil
		},
	})
	Register(&Function{
		Name:   "drop_frames",
		Doc:    "Removes the frames whose name matches the regular expression; their values go to their callers.",
		Params: []Param{{Name: "regex", Kind: ArgString}},
		Build: func(a *Args) (Op, error) {
			re, err := compilePattern(a)
			if err != nil {
				return nil, err
			}
			return DropFrames{Pattern: re}, nil
		},
	})
	Register(&Function{
		Name:   "ignore",
		Doc:    "Drops the samples whose stack holds a frame matching the regular expression (function or file name), as pprof's -ignore.",
		Params: []Param{{Name: "regex", Kind: ArgString}},
		Build: func(a *Args) (Op, error) {
			re, err := compilePattern(a)
			if err != nil {
				return nil, err
			}
			return Ignore{Pattern: re}, nil
		},
	})
	Register(&Function{
		Name:   "hide",
		Doc:    "Removes the frames matching the regular expression (function or file name) and keeps their samples under their callers, as pprof's -hide.",
		Params: []Param{{Name: "regex", Kind: ArgString}},
		Build: func(a *Args) (Op, error) {
			re, err := compilePattern(a)
			if err != nil {
				return nil, err
			}
			return Hide{Pattern: re}, nil
		},
	})
	Register(&Function{
		Name:   "truncate",
		Doc:    "Cuts every stack below the given depth; what is cut is added to the frame at that depth.",
		Params: []Param{{Name: "depth", Kind: ArgInt}},
		Build: func(a *Args) (Op, error) {
			d := a.Int("depth")
			if d < 1 {
				return nil, a.Errorf("depth", 0, "depth must be at least 1, found %d", d)
			}
			return TruncateDepth{Depth: d}, nil
		},
	})
}

func buildFramesFromLabel(a *Args) (Op, error) {
	labels := a.Strings("label")
	seen := make(map[string]bool, len(labels))
	for i, l := range labels {
		if strings.TrimSpace(l) == "" {
			return nil, a.Errorf("label", i, "label name must not be empty")
		}
		if seen[l] {
			return nil, a.Errorf("label", i, "label %q is given twice", l)
		}
		seen[l] = true
	}
	return FramesFromLabel{Labels: labels, Sep: a.String("sep")}, nil
}

// compilePattern compiles the regex argument (RE2 syntax, unanchored, matched
// against frame names).
func compilePattern(a *Args) (*regexp.Regexp, error) {
	pattern := a.String("regex")
	if pattern == "" {
		return nil, a.Errorf("regex", 0, "regular expression must not be empty")
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, a.Errorf("regex", 0, "invalid regular expression: %v", err)
	}
	return re, nil
}
