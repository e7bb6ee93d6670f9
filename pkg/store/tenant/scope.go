// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package tenant

import (
	"context"
	"slices"
	"strings"

	"connectrpc.com/connect"
	querierv1 "github.com/grafana/pyroscope/api/gen/proto/go/querier/v1"
	typesv1 "github.com/grafana/pyroscope/api/gen/proto/go/types/v1"
	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql/parser"
)

var selectorParser = parser.NewParser(parser.Options{})

// Matcher selects the series of the tenant of ctx.
func Matcher(ctx context.Context) *labels.Matcher {
	return labels.MustNewMatcher(labels.MatchEqual, Label, LabelValue(From(ctx)))
}

// Scope narrows a selector to the series of tenant id. A selector that
// does not parse is returned unchanged for the querier to refuse.
func Scope(selector, id string) string {
	m := labels.MustNewMatcher(labels.MatchEqual, Label, LabelValue(id))
	s := strings.TrimSpace(selector)
	if s == "" || s == "{}" {
		return "{" + m.String() + "}"
	}
	ms, err := selectorParser.ParseMetricSelector(s)
	if err != nil {
		return selector
	}
	parts := make([]string, 0, len(ms)+1)
	for _, x := range ms {
		parts = append(parts, x.String())
	}
	parts = append(parts, m.String())
	return "{" + strings.Join(parts, ", ") + "}"
}

func scopeAll(selectors []string, id string) []string {
	if len(selectors) == 0 {
		return []string{Scope("", id)}
	}
	out := make([]string, len(selectors))
	for i, s := range selectors {
		out[i] = Scope(s, id)
	}
	return out
}

// QuerierInterceptor narrows every querier.v1 request to the series of the
// caller's tenant and removes the tenant label from the answers.
func QuerierInterceptor() connect.UnaryInterceptorFunc {
	return func(next connect.UnaryFunc) connect.UnaryFunc {
		return func(ctx context.Context, req connect.AnyRequest) (connect.AnyResponse, error) {
			id := From(ctx)
			switch m := req.Any().(type) {
			case *querierv1.SelectMergeStacktracesRequest:
				m.LabelSelector = Scope(m.LabelSelector, id)
			case *querierv1.SelectMergeProfileRequest:
				m.LabelSelector = Scope(m.LabelSelector, id)
			case *querierv1.SelectSeriesRequest:
				m.LabelSelector = Scope(m.LabelSelector, id)
			case *querierv1.SelectHeatmapRequest:
				m.LabelSelector = Scope(m.LabelSelector, id)
			case *querierv1.SelectMergeSpanProfileRequest:
				m.LabelSelector = Scope(m.LabelSelector, id)
			case *querierv1.DiffRequest:
				if m.Left != nil {
					m.Left.LabelSelector = Scope(m.Left.LabelSelector, id)
				}
				if m.Right != nil {
					m.Right.LabelSelector = Scope(m.Right.LabelSelector, id)
				}
			case *typesv1.LabelNamesRequest:
				m.Matchers = scopeAll(m.Matchers, id)
			case *typesv1.LabelValuesRequest:
				m.Matchers = scopeAll(m.Matchers, id)
			case *querierv1.SeriesRequest:
				m.Matchers = scopeAll(m.Matchers, id)
			}
			resp, err := next(ctx, req)
			if err != nil {
				return resp, err
			}
			switch m := resp.Any().(type) {
			case *typesv1.LabelNamesResponse:
				m.Names = slices.DeleteFunc(m.Names, func(n string) bool { return n == Label })
			case *querierv1.SeriesResponse:
				for _, ls := range m.LabelsSet {
					ls.Labels = slices.DeleteFunc(ls.Labels, func(p *typesv1.LabelPair) bool { return p.Name == Label })
				}
			}
			return resp, nil
		}
	}
}
