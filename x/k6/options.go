// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package k6

import "strings"

// DefaultMaxValueLength is the longest label value kept by default, in bytes.
// Longer values are cut at a UTF-8 boundary.
const DefaultMaxValueLength = 128

// Option changes how baggage members become labels.
type Option func(*config)

// config is the resolved set of options shared by every request of one
// middleware instance.
type config struct {
	dropped   map[string]bool // label names (k6_...) not to set
	raw       bool            // keep values as sent
	maxLength int             // 0 means unlimited
}

func newConfig(opts []Option) *config {
	c := &config{dropped: map[string]bool{}, maxLength: DefaultMaxValueLength}
	for _, o := range opts {
		o(c)
	}
	return c
}

// WithDropped drops the named baggage members: no label is set for them.
// Names may be given as baggage keys ("k6.name") or as label names
// ("k6_name").
func WithDropped(keys ...string) Option {
	return func(c *config) {
		for _, k := range keys {
			c.dropped[labelName(strings.TrimSpace(k))] = true
		}
	}
}

// WithRawValues keeps values as sent (after percent-decoding) instead of
// normalising URLs in `k6.name` to routes. Raw URLs usually carry ids and
// query strings, which makes one label value per request: use with care.
func WithRawValues() Option {
	return func(c *config) { c.raw = true }
}

// WithMaxValueLength cuts label values longer than n bytes (at a UTF-8
// boundary). n <= 0 removes the limit. The default is [DefaultMaxValueLength].
func WithMaxValueLength(n int) Option {
	return func(c *config) {
		if n < 0 {
			n = 0
		}
		c.maxLength = n
	}
}
