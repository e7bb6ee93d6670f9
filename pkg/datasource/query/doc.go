// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Package query is Emberscope's query model and query language: the text
// form typed in the editor and the structured fields of the query JSON both
// become one parsed Query, from which the backend plans its calls.
//
// The language is a PromQL-like selector with functions around it:
//
//	process_cpu:cpu:nanoseconds:cpu:nanoseconds{service_name="api"}
//	process_cpu:cpu:nanoseconds:cpu:nanoseconds{service_name="api"} by (category)
//	frames_from_label({service_name="api"}, "category", "route", sep="::")
//	truncate(reverse(focus({}, "json")), 40)
//
// A selector is an optional profile type ID
// (name:sample_type:sample_unit:period_type:period_unit) followed by optional
// Prometheus label matchers in braces; at least one of the two must be
// given. Functions nest in any order and are looked up in a table (see
// Functions), so adding one needs no parser change. Strings are written in
// double quotes with Go escapes, or in backquotes taken literally (handy for
// regular expressions). A '#' starts a comment that runs to the end of the line.
//
// Errors are *Error values that name the line and column and say what was
// expected and what was found, e.g. `1:42: expected ")" after label list, found ","`.
package query
