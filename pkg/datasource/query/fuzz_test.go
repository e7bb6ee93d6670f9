// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package query

import (
	"errors"
	"testing"
)

// FuzzParse checks that parsing never panics, that every error is a
// positioned *Error, and that the canonical form of a parsed query parses
// back to the same query and prints identically.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		cpu + `{service_name="api"}`,
		cpu + `{service_name="api", region=~"eu.*"} by (category, "k6.test")`,
		`frames_from_label(` + cpu + `{service_name="api"}, "category", "route", sep="::")`,
		"truncate(reverse(focus(drop_frames({a=\"b\"}, `runtime\\..*`), \"json\")), 40)",
		`reverse({}) by (a)`,
		`{a!~"x|y", b!="\u00e9\x00"}`,
		"# c\n{} by (a)",
		`{} by (a`,
		`focus({}, "(")`,
		`"unterminated`,
		`{"a.b"="c"}`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, in string) {
		q, err := Parse(in)
		if err != nil {
			var qe *Error
			if !errors.As(err, &qe) {
				t.Fatalf("Parse(%q) error %v is %T, not *query.Error", in, err, err)
			}
			if qe.Line < 1 || qe.Col < 1 {
				t.Fatalf("Parse(%q) error %v has no position", in, err)
			}
			return
		}
		text := q.String()
		again, err := Parse(text)
		if err != nil {
			t.Fatalf("canonical form %q of %q does not parse: %v", text, in, err)
		}
		if !q.Equal(again) {
			t.Fatalf("canonical form %q of %q parses to a different query %q", text, in, again.String())
		}
		if again.String() != text {
			t.Fatalf("canonical form is not stable: %q then %q", text, again.String())
		}
	})
}
