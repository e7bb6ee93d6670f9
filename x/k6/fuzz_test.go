// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package k6

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzLabelPairs feeds arbitrary baggage headers to the parser: it must not
// panic, and what it returns must be usable pprof labels.
func FuzzLabelPairs(f *testing.F) {
	for _, seed := range []string{
		"k6.test_run_id=1,k6.scenario=checkout,k6.name=https%3A%2F%2Fshop.local%2Fcart%2F42",
		"k6.name=https://a/b/123?x=1,userId=alice;p=1",
		`k6.scenario="x",,;=`,
		"k6.=x,k6.a.b=%zz,k6.c=%E2%82%AC",
	} {
		f.Add(seed)
	}
	c := newConfig(nil)
	f.Fuzz(func(t *testing.T, header string) {
		pairs := c.labelPairs(context.Background(), []string{header})
		if len(pairs)%2 != 0 {
			t.Fatalf("odd number of strings: %q", pairs)
		}
		for i := 0; i < len(pairs); i += 2 {
			key, value := pairs[i], pairs[i+1]
			if !strings.HasPrefix(key, "k6_") || len(key) == len("k6_") || labelName(key) != key {
				t.Errorf("bad label name %q", key)
			}
			if value == "" || len(value) > DefaultMaxValueLength {
				t.Errorf("label %s: value %q is empty or longer than %d bytes", key, value, DefaultMaxValueLength)
			}
			if utf8.ValidString(header) && !utf8.ValidString(value) {
				t.Errorf("label %s: value %q is not UTF-8", key, value)
			}
			if i > 0 && pairs[i-2] >= key {
				t.Errorf("labels not sorted by key or repeated: %q", pairs)
			}
		}
	})
}

// FuzzNormalizeName checks that normalising is stable: a normalised name
// normalises to itself.
func FuzzNormalizeName(f *testing.F) {
	for _, seed := range []string{"https://a.b/c/42?x", "/u/6f1c0b9e-3a2d-4c5e-9f10-1234567890ab", "name", "//h/1", "x://"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, v string) {
		once := NormalizeName(v)
		if twice := NormalizeName(once); twice != once {
			t.Errorf("NormalizeName(%q) = %q, but NormalizeName(%q) = %q", v, once, once, twice)
		}
	})
}
