// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package query

import "testing"

// BenchmarkParse measures parsing a typical query with matchers, a function
// nest and virtual frames (the matchers go through Prometheus's parser).
func BenchmarkParse(b *testing.B) {
	const in = `truncate(reverse(frames_from_label(process_cpu:cpu:nanoseconds:cpu:nanoseconds{service_name="api", region=~"eu.*"}, "category", "route", sep="::")), 40)`
	for b.Loop() {
		if _, err := Parse(in); err != nil {
			b.Fatal(err)
		}
	}
}
