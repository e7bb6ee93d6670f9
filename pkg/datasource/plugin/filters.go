// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"fmt"
	"strings"

	"github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/model/labels"

	"github.com/emberscope/emberscope/pkg/datasource/query"
)

// adHocFilter is one of Grafana's ad-hoc filters as a dashboard sends it in
// the query JSON's "filters" array: {"key": "region", "operator": "=~",
// "value": "eu.*"}. Grafana interpolates template variables in the frontend,
// but ad-hoc filters reach the backend as they are.
type adHocFilter struct {
	Key      string `json:"key"`
	Operator string `json:"operator"`
	Value    string `json:"value"`
}

// filterOperators maps the ad-hoc filter operators to matcher types.
var filterOperators = map[string]labels.MatchType{
	"=":  labels.MatchEqual,
	"!=": labels.MatchNotEqual,
	"=~": labels.MatchRegexp,
	"!~": labels.MatchNotRegexp,
}

// filterMatchers turns ad-hoc filters into label matchers. Errors name the
// filter by its position in the array (filters[0] is the first).
func filterMatchers(fs []adHocFilter) ([]*labels.Matcher, error) {
	out := make([]*labels.Matcher, 0, len(fs))
	for i, f := range fs {
		key := strings.TrimSpace(f.Key)
		switch key {
		case "":
			return nil, userErrorf("filters[%d]: the filter has no key (label name)", i)
		case model.MetricNameLabel:
			return nil, userErrorf("filters[%d]: cannot filter on %s: profiles have no metric name", i, model.MetricNameLabel)
		}
		op := strings.TrimSpace(f.Operator)
		typ, ok := filterOperators[op]
		if !ok {
			return nil, userErrorf("filters[%d]: operator %q on label %q is not supported: use =, !=, =~ or !~", i, f.Operator, key)
		}
		m, err := labels.NewMatcher(typ, key, f.Value)
		if err != nil {
			return nil, userErrorf("filters[%d]: %s%s%q: %v", i, key, op, f.Value, err)
		}
		out = append(out, m)
	}
	return out, nil
}

// narrowQuery adds the matchers to the query's selection. Several matchers on
// one label all apply, as in a Prometheus selector.
func narrowQuery(q *query.Query, ms []*labels.Matcher) error {
	if len(ms) == 0 {
		return nil
	}
	sel, err := query.WithMatchers(q.Selector, ms...)
	if err != nil {
		return fmt.Errorf("add the ad-hoc filters to %s: %w", q.Selector, err)
	}
	if q.Matchers, err = query.ParseSelector(sel); err != nil {
		return fmt.Errorf("parse the filtered selector %s: %w", sel, err)
	}
	q.Selector = sel
	return nil
}

// narrowSelector adds the matchers to a selector in text form.
func narrowSelector(selector string, ms []*labels.Matcher) (string, error) {
	if len(ms) == 0 {
		return selector, nil
	}
	return query.WithMatchers(selector, ms...)
}
