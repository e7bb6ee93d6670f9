// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/prometheus/model/labels"

	"github.com/emberscope/emberscope/pkg/datasource/query"
	"github.com/emberscope/emberscope/pkg/datasource/source"
	"github.com/emberscope/emberscope/pkg/profile/model"
)

const (
	// previewRange is how far back a preview looks.
	previewRange = time.Hour
	// defaultPreviewStep is a preview's step unless the call names one.
	defaultPreviewStep = time.Minute
	// minPreviewStep keeps a preview's merges in bounds.
	minPreviewStep = 10 * time.Second
	// previewSeriesLimit is the most group_by value sets a preview draws.
	previewSeriesLimit = 20
)

// previewAnswer is the series a rule would give: per group_by value set,
// the points of the steps that had profiles.
type previewAnswer struct {
	From   int64           `json:"from"`
	To     int64           `json:"to"`
	StepMs int64           `json:"stepMs"`
	Series []previewSeries `json:"series"`
}

type previewSeries struct {
	Labels map[string]string `json:"labels"`
	Times  []int64           `json:"times"`
	Values []float64         `json:"values"`
}

// rulesPreview answers POST rules/preview?step=SECONDS with a rule as JSON:
// the series the rule would give over the last hour, before it is saved.
// Without a function it is each step's profile total (the metrics query);
// with one, the values of the samples whose stack holds it, each sample
// once, as the functionShare query reads them from each step's merged
// profile. The server's own validation applies when the rule is saved;
// the preview checks only what it needs.
func (d *Datasource) rulesPreview(r *http.Request) (any, error) {
	rule, err := ruleBody(r)
	if err != nil {
		return nil, err
	}
	step := defaultPreviewStep
	if s := r.URL.Query().Get("step"); s != "" {
		sec, err := strconv.ParseFloat(s, 64)
		if err != nil || time.Duration(sec*float64(time.Second)) < minPreviewStep {
			return nil, userErrorf("step: %q is not a number of seconds of at least %s", s, minPreviewStep)
		}
		step = time.Duration(sec * float64(time.Second))
	}
	q, err := ruleQuery(rule)
	if err != nil {
		return nil, err
	}
	to := d.now().Truncate(step).Add(step)
	req := &request{
		Query: q,
		Range: source.TimeRange{From: to.Add(-previewRange), To: to},
		Step:  step,
		Limit: previewSeriesLimit,
	}
	answer := previewAnswer{From: req.Range.From.UnixMilli(), To: to.UnixMilli(), StepMs: step.Milliseconds(), Series: []previewSeries{}}
	if rule.FunctionName == "" {
		series, err := d.src.Series(r.Context(), source.SeriesRequest{Selection: req.selection(), GroupBy: q.GroupBy, Step: step})
		if err != nil {
			return nil, err
		}
		for _, s := range series {
			ps := previewSeries{Labels: labelMap(s.Labels), Times: []int64{}, Values: []float64{}}
			for _, p := range s.Points {
				ps.Times = append(ps.Times, p.Time.UnixMilli())
				ps.Values = append(ps.Values, p.Value)
			}
			answer.Series = append(answer.Series, ps)
		}
		return answer, nil
	}
	return d.functionPreview(r, req, rule.FunctionName, answer)
}

// functionPreview fills answer with the function's samples per step and
// group_by value set.
func (d *Datasource) functionPreview(r *http.Request, req *request, function string, answer previewAnswer) (any, error) {
	match, err := query.ParseFunctionMatch(function, "")
	if err != nil {
		return nil, err
	}
	pt, err := model.ParseProfileType(req.Query.ProfileTypeID)
	if err != nil {
		return nil, userErrorf("profile type: %v", err)
	}
	groups, _, err := d.noveltySeries(r.Context(), req)
	if err != nil {
		return nil, err
	}
	var windows []time.Time
	for from := req.Range.From; from.Before(req.Range.To); from = from.Add(req.Step) {
		windows = append(windows, from)
	}
	if n := len(windows) * len(groups); n > maxCallSiteSteps {
		return nil, userErrorf("preview: %d series of %d steps, more than the %d merges a preview may ask for; widen the step or group by fewer labels", len(groups), len(windows), maxCallSiteSteps)
	}
	for _, g := range groups {
		steps, err := d.functionShares(r.Context(), req, g.selector, windows, pt, match)
		if err != nil {
			return nil, err
		}
		ps := previewSeries{Labels: labelMap(g.labels), Times: []int64{}, Values: []float64{}}
		for i, s := range steps {
			if s.ok {
				ps.Times = append(ps.Times, windows[i].UnixMilli())
				ps.Values = append(ps.Values, float64(s.held))
			}
		}
		answer.Series = append(answer.Series, ps)
	}
	return answer, nil
}

// ruleQuery reads a rule's matchers (every matcher of every selector, as
// one selector) and group_by as a query: the __profile_type__ equality
// matcher names the profile type.
func ruleQuery(rule source.RecordingRule) (*query.Query, error) {
	q := &query.Query{GroupBy: rule.GroupBy}
	var kept []*labels.Matcher
	for _, m := range rule.Matchers {
		ms, err := query.ParseSelector(m)
		if err != nil {
			return nil, userErrorf("matcher %q is invalid: %v", m, err)
		}
		for _, x := range ms {
			if x.Name != model.LabelNameProfileType {
				kept = append(kept, x)
				continue
			}
			if x.Type != labels.MatchEqual {
				return nil, userErrorf("matcher %q must have type %q", x.Name, "=")
			}
			q.ProfileTypeID = x.Value
		}
	}
	if q.ProfileTypeID == "" {
		return nil, userErrorf("matchers must contain a %q matcher", model.LabelNameProfileType)
	}
	q.Matchers = kept
	q.Selector = query.FormatSelector(kept)
	return q, nil
}

func labelMap(ls model.Labels) map[string]string {
	out := make(map[string]string, len(ls))
	for _, l := range ls {
		out[l.Name] = l.Value
	}
	return out
}
