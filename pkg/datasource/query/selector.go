// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package query

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/model/labels"
	promparser "github.com/prometheus/prometheus/promql/parser"
)

// matcherParser validates label matchers exactly as Prometheus does.
var matcherParser = promparser.NewParser(promparser.Options{})

// ParseSelector parses Prometheus label matchers such as
// `{service_name="api", region=~"eu.*"}`; "" and "{}" give no matchers.
// The matchers come back in normalised order (see FormatSelector).
// Errors are *Error with positions inside s.
func ParseSelector(s string) ([]*labels.Matcher, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	ms, err := parseMatchersAt(s, 0, s)
	if err != nil {
		return nil, err
	}
	return ms, nil
}

// parseMatchersAt parses the "{...}" text found at byte offset off of the
// whole query text, so that errors point into the whole text.
func parseMatchersAt(text string, off position, braces string) ([]*labels.Matcher, *Error) {
	trimmed := strings.TrimSpace(braces)
	lead := strings.Index(braces, trimmed)
	if !strings.HasPrefix(trimmed, "{") {
		return nil, errorAt(text, off+position(lead), "expected \"{\" to start the label matchers, found %s", describeText(trimmed))
	}
	ms, err := matcherParser.ParseMetricSelector(braces)
	if err != nil {
		var perrs promparser.ParseErrors
		if errors.As(err, &perrs) && len(perrs) > 0 {
			p := perrs[0]
			return nil, errorAt(text, off+position(p.PositionRange.Start), "in label matchers: %v", p.Err)
		}
		return nil, errorAt(text, off, "in label matchers: %v", err)
	}
	for _, m := range ms {
		if m.Name == model.MetricNameLabel {
			return nil, errorAt(text, off, "label matchers cannot select %s: profiles have no metric name", model.MetricNameLabel)
		}
	}
	sortMatchers(ms)
	return ms, nil
}

func describeText(s string) string {
	if s == "" {
		return "end of input"
	}
	return fmt.Sprintf("%q", abbreviate(s))
}

// sortMatchers puts matchers in their normalised order: by label name, then
// matcher type, then value, so that equal selections print equally.
func sortMatchers(ms []*labels.Matcher) {
	slices.SortStableFunc(ms, func(a, b *labels.Matcher) int {
		if c := strings.Compare(a.Name, b.Name); c != 0 {
			return c
		}
		if a.Type != b.Type {
			return int(a.Type) - int(b.Type)
		}
		return strings.Compare(a.Value, b.Value)
	})
}

// FormatSelector prints matchers in the normalised form `{a="b",c=~"d"}`,
// sorted by label name, or "{}" when there are none. The result parses back
// to the same matchers.
func FormatSelector(ms []*labels.Matcher) string {
	if len(ms) == 0 {
		return "{}"
	}
	sorted := slices.Clone(ms)
	sortMatchers(sorted)
	var b strings.Builder
	b.WriteByte('{')
	for i, m := range sorted {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(m.String())
	}
	b.WriteByte('}')
	return b.String()
}

// WithMatchers returns selector with extra matchers added, normalised. It is
// how a planner narrows a selection, e.g. to one label value.
func WithMatchers(selector string, extra ...*labels.Matcher) (string, error) {
	ms, err := ParseSelector(selector)
	if err != nil {
		return "", err
	}
	return FormatSelector(append(ms, extra...)), nil
}
