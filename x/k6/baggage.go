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

// labelPairs returns the flat key/value list of pprof labels that the given
// baggage header values yield for a request whose context is ctx. Labels the
// context already carries are left out so they keep their value.
//
// Each list-member is parsed on its own with the OpenTelemetry parser, so a
// malformed or oversized neighbour does not cost the valid k6 members. When a
// key repeats, the last member wins (as in OpenTelemetry).
func (c *config) labelPairs(ctx context.Context, headers []string) []string {
	values := map[string]string{}
	var order []string
	for _, h := range headers {
		for raw := range strings.SplitSeq(h, ",") {
			if len(order) >= maxMembers {
				break
			}
			key, value, ok := c.member(raw)
			if !ok {
				continue
			}
			if _, seen := values[key]; !seen {
				order = append(order, key)
			}
			values[key] = value
		}
	}
	var pairs []string
	for _, key := range order {
		if values[key] == "" {
			continue
		}
		if _, exists := pprof.Label(ctx, key); exists {
			continue
		}
		pairs = append(pairs, key, values[key])
	}
	return pairs
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
	m := b.Members()[0]
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
