// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package parca

import (
	"context"
	"fmt"
	"strings"

	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql/parser"

	"github.com/emberscope/emberscope/pkg/datasource/source"
	"github.com/emberscope/emberscope/pkg/profile/model"
)

// query returns Parca's query string for a selection: the Parca type ID
// followed by the label selector, unchanged ("" means {}).
func (c *Client) query(ctx context.Context, sel source.Selection) (string, error) {
	if sel.ProfileTypeID == "" {
		return "", fmt.Errorf("parca: no profile type given")
	}
	t, err := c.types.resolve(ctx, sel.ProfileTypeID)
	if err != nil {
		return "", err
	}
	selector := strings.TrimSpace(sel.LabelSelector)
	if selector == "" {
		selector = "{}"
	}
	return t + selector, nil
}

// labelScope is what the matchers of a labels request say: a profile type
// (from __profile_type__) and, per selector, the matchers on labels.
type labelScope struct {
	// profileType is our type ID, "" when the selectors name none or
	// different ones.
	profileType string
	// selectors holds one matcher list per selector, without
	// __profile_type__ and __name__. A nil list means "no selectors".
	selectors [][]*labels.Matcher
}

// parseScope parses the matchers of a labels request.
func parseScope(matchers []string) (labelScope, error) {
	var s labelScope
	p := parser.NewParser(parser.Options{})
	types := map[string]bool{}
	for i, raw := range matchers {
		raw = strings.TrimSpace(raw)
		if raw == "" || raw == "{}" {
			s.selectors = append(s.selectors, nil)
			continue
		}
		ms, err := p.ParseMetricSelector(raw)
		if err != nil {
			return labelScope{}, fmt.Errorf("parca: matcher %d %q: %w", i+1, raw, err)
		}
		var kept []*labels.Matcher
		typed := false
		for _, m := range ms {
			switch m.Name {
			case model.LabelNameProfileType:
				if m.Type != labels.MatchEqual {
					return labelScope{}, fmt.Errorf("parca: matcher %d %q: %s must be matched with =, got %s",
						i+1, raw, model.LabelNameProfileType, m.Type)
				}
				types[m.Value] = true
				typed = true
			case model.LabelNameProfileName:
				// Parca has no such label (its profile name is the first
				// part of the type), so matchers on it are dropped.
			default:
				kept = append(kept, m)
			}
		}
		if !typed {
			types[""] = true
		}
		s.selectors = append(s.selectors, kept)
	}
	if len(types) == 1 {
		for t := range types {
			s.profileType = t
		}
	}
	return s, nil
}

// constrainsOtherThan reports whether some selector has a matcher on a
// label other than name.
func (s labelScope) constrainsOtherThan(name string) bool {
	for _, sel := range s.selectors {
		for _, m := range sel {
			if m.Name != name {
				return true
			}
		}
	}
	return false
}

// accepts reports whether the value v of label name passes the matchers on
// name of at least one selector (every value passes when there are none).
func (s labelScope) accepts(name, v string) bool {
	if len(s.selectors) == 0 {
		return true
	}
	for _, sel := range s.selectors {
		ok := true
		for _, m := range sel {
			if m.Name == name && !m.Matches(v) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// selectorString writes matchers back as a selector.
func selectorString(ms []*labels.Matcher) string {
	parts := make([]string, len(ms))
	for i, m := range ms {
		parts[i] = m.String()
	}
	return "{" + strings.Join(parts, ", ") + "}"
}
