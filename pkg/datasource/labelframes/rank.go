// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package labelframes

import (
	"regexp"
	"slices"
	"strings"
)

// rankByTotal returns values sorted by total, largest first, ties by value.
func rankByTotal(values []string, total func(string) int64) []string {
	ranked := slices.Clone(values)
	slices.SortStableFunc(ranked, func(a, b string) int {
		ta, tb := total(a), total(b)
		switch {
		case ta > tb:
			return -1
		case ta < tb:
			return 1
		}
		return strings.Compare(a, b)
	})
	return ranked
}

// alternation is a regex matching exactly the given values (Prometheus
// anchors matcher regexes).
func alternation(values []string) string {
	quoted := make([]string, len(values))
	for i, v := range values {
		quoted[i] = regexp.QuoteMeta(v)
	}
	return strings.Join(quoted, "|")
}
