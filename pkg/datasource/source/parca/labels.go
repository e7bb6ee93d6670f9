// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package parca

import (
	"context"
	"net/url"
	"slices"

	"github.com/emberscope/emberscope/pkg/datasource/source"
)

// LabelNames lists the label names of the series in r. A
// __profile_type__="<id>" matcher becomes Parca's profileType filter; other
// matchers cannot be applied (Parca ignores "match"), so the names of every
// series of the type come back.
func (c *Client) LabelNames(ctx context.Context, r source.LabelsRequest) ([]string, error) {
	scope, err := parseScope(r.Matchers)
	if err != nil {
		return nil, err
	}
	q, err := c.labelsQuery(ctx, scope, r.Range)
	if err != nil {
		return nil, err
	}
	var resp labelNamesResponse
	if err := c.get(ctx, "/api/profiles/labels", q, &resp); err != nil {
		return nil, err
	}
	names := append([]string{}, resp.LabelNames...)
	slices.Sort(names)
	return slices.Compact(names), nil
}

// LabelValues lists the values of label name in r. Matchers on name itself
// filter the values here; matchers on other labels are applied through
// query_range grouped by name when the matchers name a profile type and r
// has a time range, and cannot be applied otherwise.
func (c *Client) LabelValues(ctx context.Context, name string, r source.LabelsRequest) ([]string, error) {
	scope, err := parseScope(r.Matchers)
	if err != nil {
		return nil, err
	}
	if scope.profileType != "" && scope.constrainsOtherThan(name) && checkRange(r.Range) == nil {
		return c.valuesBySeries(ctx, name, scope, r.Range)
	}
	q, err := c.labelsQuery(ctx, scope, r.Range)
	if err != nil {
		return nil, err
	}
	var resp labelValuesResponse
	if err := c.get(ctx, "/api/profiles/labels/"+url.PathEscape(name)+"/values", q, &resp); err != nil {
		return nil, err
	}
	out := make([]string, 0, len(resp.LabelValues))
	for _, v := range resp.LabelValues {
		if scope.accepts(name, v) {
			out = append(out, v)
		}
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// labelsQuery holds the parameters the label endpoints honour: the profile
// type and the time range.
func (c *Client) labelsQuery(ctx context.Context, scope labelScope, r source.TimeRange) (url.Values, error) {
	q := url.Values{}
	if scope.profileType != "" {
		t, err := c.types.resolve(ctx, scope.profileType)
		if err != nil {
			return nil, err
		}
		q.Set("profileType", t)
	}
	addRange(q, "", r)
	return q, nil
}

// valuesBySeries finds the values of name among the series each selector
// matches: one query_range per selector, summed by name, with one bucket
// over the whole range.
func (c *Client) valuesBySeries(ctx context.Context, name string, scope labelScope, r source.TimeRange) ([]string, error) {
	out := []string{}
	for _, sel := range scope.selectors {
		query, err := c.query(ctx, source.Selection{ProfileTypeID: scope.profileType, LabelSelector: selectorString(sel)})
		if err != nil {
			return nil, err
		}
		q := url.Values{}
		q.Set("query", query)
		addRange(q, "", r)
		q.Set("step", formatStep(r.To.Sub(r.From)))
		q.Add("sumBy", name)
		var resp queryRangeResponse
		err = c.get(ctx, "/api/profiles/query_range", q, &resp)
		if isNotFound(err) {
			continue
		}
		if err != nil {
			return nil, err
		}
		for _, s := range resp.Series {
			for _, l := range s.Labelset.Labels {
				if l.Name == name && l.Value != "" {
					out = append(out, l.Value)
				}
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}
