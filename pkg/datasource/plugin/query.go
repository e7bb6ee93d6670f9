// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/grafana/grafana-plugin-sdk-go/backend"
	"github.com/prometheus/prometheus/model/labels"

	"github.com/emberscope/emberscope/pkg/datasource/query"
	"github.com/emberscope/emberscope/pkg/datasource/source"
	"github.com/emberscope/emberscope/pkg/profile/model"
)

// Query types, as in the query JSON's queryType.
const (
	QueryTypeProfile   = "profile"
	QueryTypeMetrics   = "metrics"
	QueryTypeBoth      = "both"
	QueryTypeLabels    = "labels"
	QueryTypeTopTable  = "topTable"
	QueryTypeDiff      = "diff"
	QueryTypeHistogram = "histogram"
	// QueryTypeCallSiteSeries is the value of the query's callSite per step.
	QueryTypeCallSiteSeries = "callSiteSeries"
	// QueryTypeFunctionShare is, per step, the share of the samples whose
	// stack holds a function (query_function_share.go).
	QueryTypeFunctionShare = "functionShare"
)

// DefaultMaxNodes is a flamegraph's node budget when the query sets none.
const DefaultMaxNodes = 16384

// DefaultLimit is how many series (or label values) a query keeps by default;
// the rest are folded into one "other".
const DefaultLimit = 20

// queryModel is the query JSON: a superset of Grafana's built-in Pyroscope
// datasource model (profileTypeId, labelSelector, groupBy, maxNodes,
// queryType) with Emberscope's expr, limit, comparison, ad-hoc filters and
// live mode.
type queryModel struct {
	QueryType     string          `json:"queryType"`
	ProfileTypeID string          `json:"profileTypeId"`
	LabelSelector string          `json:"labelSelector"`
	GroupBy       []string        `json:"groupBy"`
	Expr          string          `json:"expr"`
	MaxNodes      json.RawMessage `json:"maxNodes"`
	Limit         json.RawMessage `json:"limit"`
	Comparison    *comparison     `json:"comparison"`
	// Baseline, for diff, is the left side's range when not the query's.
	Baseline *baselineModel `json:"baseline"`
	// Novelty holds the novelty query type's options.
	Novelty *noveltyModel `json:"novelty"`
	// Filters are Grafana's ad-hoc filters, added to the selection as
	// matchers (and to a diff's comparison selector).
	Filters []adHocFilter `json:"filters"`
	// Live asks for live mode: the query covers the last LiveWindow and its
	// frames name a channel that re-runs it every LiveInterval.
	Live         bool   `json:"live"`
	LiveWindow   string `json:"liveWindow"`
	LiveInterval string `json:"liveInterval"`
	// Granularity is what a flamegraph frame stands for: "functions" (the
	// default), "lines" or "files" (see granularity.go).
	Granularity string `json:"granularity"`
	// SpanSelector, ProfileIDSelector, IncludeExemplars and HeatmapType are
	// Grafana's Pyroscope datasource fields for traces and exemplars
	// (spans.go).
	SpanSelector      []string `json:"spanSelector"`
	ProfileIDSelector []string `json:"profileIdSelector"`
	IncludeExemplars  bool     `json:"includeExemplars"`
	HeatmapType       string   `json:"heatmapType"`
	// CallSite focuses a flamegraph (the left side of a diff) on one call
	// path: frame names from the root's first child down, virtual frames of
	// "by (label)" first. Only the samples under it are merged, at full
	// resolution (callsite.go).
	CallSite []string `json:"callSite"`
	// Function or FunctionRegex picks the functions of a functionShare
	// query: an exact name, or a regular expression of whole names.
	Function      string `json:"function"`
	FunctionRegex string `json:"functionRegex"`
	// Sandwich asks a profile query for one function's callers and callees
	// merged from the range's full-resolution profile (sandwich.go).
	Sandwich string `json:"sandwich"`
}

// comparison is the right-hand side of a diff: a selector and a time range in
// epoch milliseconds.
type comparison struct {
	LabelSelector string      `json:"labelSelector"`
	From          json.Number `json:"from"`
	To            json.Number `json:"to"`
	// CallSite focuses the right side on one call path, as the query's
	// callSite does the left.
	CallSite []string `json:"callSite"`
}

// request is one query, parsed and checked, ready to plan.
type request struct {
	RefID    string
	Query    *query.Query
	Range    source.TimeRange
	MaxNodes int
	Limit    int
	// Step is the series step: max(minStep, interval, range/maxDataPoints).
	Step       time.Duration
	Comparison *comparisonRequest
	// Live is set for a live query; Range is then the last Live.Window.
	Live *liveOptions
	// Baseline is a diff's left range when it is not Range.
	Baseline *source.TimeRange
	Novelty  *noveltyModel
	// Granularity is what a flamegraph frame stands for.
	Granularity model.Granularity
	// Spans holds the span, profile id and exemplar options (spans.go).
	Spans spanOptions
	// CallSite is the call path the flamegraph is focused on; nil for all.
	CallSite []string
	// Function and FunctionRegex are a functionShare query's, unchecked:
	// only that query type reads them.
	Function, FunctionRegex string
	// Sandwich is the function whose sandwich a profile query answers; "" for the flamegraph.
	Sandwich string
}

type comparisonRequest struct {
	Selector string
	Range    source.TimeRange
	CallSite []string
}

// selection is what the request selects, in the client's terms.
func (r *request) selection() source.Selection {
	return source.Selection{
		ProfileTypeID: r.Query.ProfileTypeID,
		LabelSelector: r.Query.Selector,
		Range:         r.Range,
		SpanSelector:  r.Spans.SpanIDs,
		ProfileIDs:    r.Spans.ProfileIDs,
		CallSite:      r.CallSite,
	}
}

// parseRequest reads, compiles and checks one query. Every error says which
// field is wrong.
func parseRequest(q backend.DataQuery, minStep time.Duration) (*request, error) {
	var m queryModel
	if len(q.JSON) > 0 {
		if err := json.Unmarshal(q.JSON, &m); err != nil {
			return nil, userErrorf("invalid query JSON: %v", jsonProblem(err))
		}
	}
	if q.TimeRange.From.IsZero() || q.TimeRange.To.IsZero() {
		return nil, userErrorf("the query has no time range: both from and to are required")
	}
	if !q.TimeRange.From.Before(q.TimeRange.To) {
		return nil, userErrorf("empty time range: from %s is not before to %s",
			q.TimeRange.From.UTC().Format(time.RFC3339), q.TimeRange.To.UTC().Format(time.RFC3339))
	}
	compiled, err := query.Compile(query.Model{
		ProfileTypeID: strings.TrimSpace(m.ProfileTypeID),
		LabelSelector: m.LabelSelector,
		GroupBy:       m.GroupBy,
		Expr:          m.Expr,
	})
	if err != nil {
		return nil, err
	}
	filters, err := filterMatchers(m.Filters)
	if err != nil {
		return nil, err
	}
	if err := narrowQuery(compiled, filters); err != nil {
		return nil, userErrorf("filters: %v", err)
	}
	r := &request{
		RefID:    q.RefID,
		Query:    compiled,
		Range:    source.TimeRange{From: q.TimeRange.From, To: q.TimeRange.To},
		MaxNodes: DefaultMaxNodes,
		Limit:    DefaultLimit,
	}
	if r.MaxNodes, err = positiveInt("maxNodes", m.MaxNodes, DefaultMaxNodes, 1<<20); err != nil {
		return nil, err
	}
	if r.Limit, err = positiveInt("limit", m.Limit, DefaultLimit, 10000); err != nil {
		return nil, err
	}
	if r.Live, err = parseLive(&m); err != nil {
		return nil, err
	}
	if r.Live != nil {
		// The step is that of the window, and the range the window ending now.
		q.TimeRange = backend.TimeRange{From: q.TimeRange.To.Add(-r.Live.Window), To: q.TimeRange.To}
		r.Step = step(q, minStep)
		r.Range = liveRange(time.Now(), r.Live.Window, r.Step)
	} else {
		r.Step = step(q, minStep)
	}
	r.Novelty = m.Novelty
	r.Function, r.FunctionRegex = m.Function, m.FunctionRegex
	if r.Granularity, err = model.ParseGranularity(m.Granularity); err != nil {
		return nil, userErrorf("granularity: %v", err)
	}
	if r.Spans, err = parseSpanOptions(&m); err != nil {
		return nil, err
	}
	if r.CallSite, err = parseCallSite("callSite", m.CallSite); err != nil {
		return nil, err
	}
	if r.Sandwich, err = parseSandwich(m.Sandwich, r.CallSite); err != nil {
		return nil, err
	}
	if r.Baseline, err = parseBaseline(m.Baseline); err != nil {
		return nil, err
	}
	if m.Comparison != nil {
		if r.Live != nil {
			return nil, userErrorf("live: a diff query cannot be live: its comparison range is fixed")
		}
		if r.Comparison, err = parseComparison(m.Comparison, filters); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// jsonProblem shortens encoding/json's messages to what a user needs.
func jsonProblem(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		return fmt.Sprintf("field %q must be %s, not %s", te.Field, te.Type.String(), te.Value)
	}
	return err.Error()
}

// positiveInt reads an optional positive integer field, a JSON number or a
// numeric string; 0, null or absent gives def.
func positiveInt(field string, raw json.RawMessage, def, maxV int) (int, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return def, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		s = string(raw)
	}
	s = strings.TrimSpace(s)
	if s == "" {
		return def, nil
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, userErrorf("%s: %q is not a whole number", field, s)
	}
	if v < 0 {
		return 0, userErrorf("%s: %d is negative", field, v)
	}
	if v == 0 {
		return def, nil
	}
	if v > int64(maxV) {
		return 0, userErrorf("%s: %d is above the maximum of %d", field, v, maxV)
	}
	return int(v), nil
}

// step is the series step: the largest of the datasource's minimum step, the
// query's interval and the range divided by the most points wanted, rounded
// up to whole milliseconds.
func step(q backend.DataQuery, minStep time.Duration) time.Duration {
	s := max(minStep, q.Interval)
	if q.MaxDataPoints > 0 {
		s = max(s, q.TimeRange.To.Sub(q.TimeRange.From)/time.Duration(q.MaxDataPoints))
	}
	if r := s % time.Millisecond; r != 0 {
		s += time.Millisecond - r
	}
	return s
}

func parseComparison(c *comparison, filters []*labels.Matcher) (*comparisonRequest, error) {
	sel, err := query.ParseSelector(c.LabelSelector)
	if err != nil {
		return nil, userErrorf("comparison.labelSelector: %v", err)
	}
	selector, err := narrowSelector(query.FormatSelector(sel), filters)
	if err != nil {
		return nil, userErrorf("comparison.labelSelector with the filters: %v", err)
	}
	from, err := c.From.Int64()
	if err != nil || from <= 0 {
		return nil, userErrorf("comparison.from: %q is not a time in epoch milliseconds", c.From.String())
	}
	to, err := c.To.Int64()
	if err != nil || to <= 0 {
		return nil, userErrorf("comparison.to: %q is not a time in epoch milliseconds", c.To.String())
	}
	if from >= to {
		return nil, userErrorf("comparison: from %d is not before to %d", from, to)
	}
	callSite, err := parseCallSite("comparison.callSite", c.CallSite)
	if err != nil {
		return nil, err
	}
	return &comparisonRequest{
		CallSite: callSite,
		Selector: selector,
		Range:    source.TimeRange{From: time.UnixMilli(from).UTC(), To: time.UnixMilli(to).UTC()},
	}, nil
}

// maxCallSiteDepth bounds a call path's length; Pyroscope keeps stacks of at
// most a few hundred frames, and a longer path can only be a mistake.
const maxCallSiteDepth = 4096

// parseCallSite checks a call path: frame names, none empty, and not the
// root's "total" (the path starts below the root).
func parseCallSite(field string, path []string) ([]string, error) {
	if len(path) == 0 {
		return nil, nil
	}
	if len(path) > maxCallSiteDepth {
		return nil, userErrorf("%s: %d frames, more than the %d a call path may have", field, len(path), maxCallSiteDepth)
	}
	for i, name := range path {
		if name == "" {
			return nil, userErrorf("%s: frame %d is empty", field, i+1)
		}
	}
	return slices.Clone(path), nil
}
