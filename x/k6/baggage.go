// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package k6

import (
	"context"
	"runtime/pprof"
	"strings"
	"unicode/utf8"

	"go.opentelemetry.io/otel/baggage"
)

const (
	// keyPrefix marks the baggage members k6 sends.
	keyPrefix = "k6."
	// nameKey is the member k6 fills with the request URL.
	nameKey = "k6.name"
	// maxMembers bounds how many k6 members of one request become labels,
	// whatever a client sends.
	maxMembers = 64
)

// labelPairs returns the flat key/value list of pprof labels, sorted by key,
// that the given baggage header values yield for a request whose context is
// ctx. Labels the
// context already carries are left out so they keep their value.
//
// Headers are parsed with the OpenTelemetry parser; one that does not parse
// cleanly is parsed again member by member, so a malformed or oversized
// neighbour does not cost the valid k6 members. When a key repeats, the last
// member wins (as in OpenTelemetry).
func (c *config) labelPairs(ctx context.Context, headers []string) []string {
	var pairs []string // key, value, key, value...
	add := func(key, value string) {
		if i := indexOfKey(pairs, key); i >= 0 {
			pairs[i+1] = value
		} else if len(pairs) < 2*maxMembers {
			pairs = append(pairs, key, value)
		}
	}
	for _, h := range headers {
		if !strings.Contains(h, keyPrefix) {
			continue
		}
		// A well-formed header is parsed in one go; otherwise member by
		// member, so that nothing but the bad members is lost.
		if b, err := baggage.Parse(h); err == nil {
			for _, m := range b.Members() {
				if key, value, ok := c.label(m); ok {
					add(key, value)
				}
			}
			continue
		}
		for raw := range strings.SplitSeq(h, ",") {
			if key, value, ok := c.member(raw); ok {
				add(key, value)
			}
		}
	}
	kept := pairs[:0]
	for i := 0; i < len(pairs); i += 2 {
		if pairs[i+1] == "" {
			continue
		}
		if _, exists := pprof.Label(ctx, pairs[i]); exists {
			continue
		}
		kept = append(kept, pairs[i], pairs[i+1])
	}
	if len(kept) == 0 {
		return nil
	}
	sortPairs(kept)
	return kept
}

// sortPairs orders a flat key/value list by key, so that the same baggage
// always yields the same list.
func sortPairs(pairs []string) {
	for i := 2; i < len(pairs); i += 2 {
		for j := i; j > 0 && pairs[j] < pairs[j-2]; j -= 2 {
			pairs[j], pairs[j-2] = pairs[j-2], pairs[j]
			pairs[j+1], pairs[j-1] = pairs[j-1], pairs[j+1]
		}
	}
}

// indexOfKey returns the index of key among the keys of a flat key/value
// list, or -1.
func indexOfKey(pairs []string, key string) int {
	for i := 0; i < len(pairs); i += 2 {
		if pairs[i] == key {
			return i
		}
	}
	return -1
}

// member parses one baggage list-member and returns its label name and
// value, or ok=false when the member is not a usable k6 member.
func (c *config) member(raw string) (label, value string, ok bool) {
	k, _, found := strings.Cut(raw, "=")
	if !found || !strings.HasPrefix(strings.TrimSpace(k), keyPrefix) {
		return "", "", false
	}
	b, err := baggage.Parse(raw)
	if err != nil || b.Len() != 1 {
		return "", "", false
	}
	return c.label(b.Members()[0])
}

// label returns the label name and value of a parsed baggage member, or
// ok=false when it is not a usable k6 member.
func (c *config) label(m baggage.Member) (label, value string, ok bool) {
	if !strings.HasPrefix(m.Key(), keyPrefix) {
		return "", "", false
	}
	label = labelName(m.Key())
	if label == labelName(keyPrefix) || c.dropped[label] {
		return "", "", false
	}
	value = strings.TrimSpace(m.Value())
	if !c.raw && m.Key() == nameKey {
		value = NormalizeName(value)
	}
	return label, truncate(value, c.maxLength), true
}

// labelName turns a baggage key into a label name: dots and every other
// character outside [A-Za-z0-9_] become underscores ("k6.test_run_id" →
// "k6_test_run_id").
func labelName(key string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_':
			return r
		default:
			return '_'
		}
	}, key)
}

// truncate cuts s to at most n bytes without splitting a UTF-8 sequence;
// n == 0 means no limit.
func truncate(s string, n int) string {
	if n == 0 || len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
