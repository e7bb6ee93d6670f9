// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package query

import (
	"fmt"
	"regexp"
	"strings"
)

// FunctionMatch picks the functions of a function-share query: one function
// by its exact name, or every function whose whole name matches a regular
// expression (RE2, anchored at both ends as Prometheus' =~ is).
type FunctionMatch struct {
	name string
	re   *regexp.Regexp
}

// ParseFunctionMatch reads a function-share query's function (an exact
// name) or functionRegex; exactly one of them must be set. Errors name the
// field.
func ParseFunctionMatch(name, pattern string) (*FunctionMatch, error) {
	name, pattern = strings.TrimSpace(name), strings.TrimSpace(pattern)
	switch {
	case name == "" && pattern == "":
		return nil, &Error{Msg: "functionShare: set function (a function's exact name) or functionRegex (a regular expression of function names)"}
	case name != "" && pattern != "":
		return nil, &Error{Msg: "functionShare: set function or functionRegex, not both"}
	case name != "":
		return &FunctionMatch{name: name}, nil
	}
	re, err := regexp.Compile("^(?:" + pattern + ")$")
	if err != nil {
		return nil, &Error{Msg: fmt.Sprintf("functionRegex: %q is not a valid regular expression: %v", pattern, err)}
	}
	return &FunctionMatch{re: re}, nil
}

// Matches reports whether a function name is one the query picks.
func (m *FunctionMatch) Matches(function string) bool {
	if m.re != nil {
		return m.re.MatchString(function)
	}
	return function == m.name
}

// String is the exact name, or the regular expression as =~"...".
func (m *FunctionMatch) String() string {
	if m.re != nil {
		s := m.re.String()
		return fmt.Sprintf("=~%q", s[len("^(?:"):len(s)-len(")$")])
	}
	return m.name
}
