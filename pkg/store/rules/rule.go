// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Package rules keeps recording rules, which turn profiles into Prometheus
// series, and serves them as Pyroscope's settings.v1.RecordingRulesService:
// per tenant, persisted with the store's data, validated and answered with
// Pyroscope v2.2.1's codes and texts, updated optimistically through a
// generation, and with provisioned rules loaded from a file that the API
// cannot change.
package rules

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"

	settingsv1 "github.com/grafana/pyroscope/api/gen/proto/go/settings/v1"
	prom "github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql/parser"
)

const (
	// MetricPrefix starts every recorded metric's name.
	MetricPrefix = "profiles_recorded_"
	// RuleIDLabel carries the rule's id on every exported series.
	RuleIDLabel = "profiles_rule_id"
	// ProfileTypeLabel is the series label that a rule must match with "=".
	ProfileTypeLabel = "__profile_type__"

	idAlphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	idLength   = 10
)

var (
	idPattern      = regexp.MustCompile(`^[a-zA-Z]+$`)
	selectorParser = parser.NewParser(parser.Options{})
)

// validateUpsert checks a rule as Pyroscope does before storing it, joining
// every problem found into one error (one line each).
func validateUpsert(r *settingsv1.UpsertRecordingRuleRequest) error {
	var errs []error
	if !idPattern.MatchString(r.Id) {
		errs = append(errs, fmt.Errorf("id %q must match %s", r.Id, idPattern.String()))
	}
	if r.MetricName == "" {
		errs = append(errs, errors.New("metric_name is required"))
	} else if err := validateMetricName(r.MetricName); err != nil {
		errs = append(errs, fmt.Errorf("metric_name %q is invalid: %v", r.MetricName, err))
	}
	typeMatchers := 0
	for _, m := range r.Matchers {
		ms, err := selectorParser.ParseMetricSelector(m)
		if err != nil {
			errs = append(errs, fmt.Errorf("matcher %q is invalid: %v", m, err))
		}
		for _, matcher := range ms {
			if matcher == nil || matcher.Name != ProfileTypeLabel {
				continue
			}
			if matcher.Type != labels.MatchEqual {
				errs = append(errs, fmt.Errorf("matcher %q must have type %q", matcher.Name, labels.MatchEqual))
			}
			typeMatchers++
		}
	}
	if typeMatchers != 1 {
		errs = append(errs, fmt.Errorf("matchers must contain a %q matcher", ProfileTypeLabel))
	}
	for _, l := range r.GroupBy {
		if !prom.LegacyValidation.IsValidLabelName(l) {
			errs = append(errs, fmt.Errorf("group_by label %q must match %s", l, prom.LabelNameRE.String()))
		}
	}
	for _, l := range r.ExternalLabels {
		if !prom.LegacyValidation.IsValidLabelName(l.Name) {
			errs = append(errs, fmt.Errorf("external_labels name %q must match %s", l.Name, prom.LabelNameRE.String()))
		}
		if !prom.LabelValue(l.Value).IsValid() {
			errs = append(errs, fmt.Errorf("external_labels value %q must be a valid utf-8 string", l.Value))
		}
	}
	if r.Generation < 0 {
		errs = append(errs, errors.New("generation must be positive"))
	}
	return errors.Join(errs...)
}

func validateMetricName(name string) error {
	if !prom.LegacyValidation.IsValidMetricName(name) {
		return fmt.Errorf("invalid metric name: %s", name)
	}
	if !strings.HasPrefix(name, MetricPrefix) {
		return fmt.Errorf("metric name must start with %s", MetricPrefix)
	}
	return nil
}

// profileTypeOf is the value of the rule's "__profile_type__" equality
// matcher, or "unknown" as Pyroscope answers when there is none.
func profileTypeOf(matchers []string) string {
	for _, m := range matchers {
		ms, err := selectorParser.ParseMetricSelector(m)
		if err != nil {
			continue
		}
		for _, matcher := range ms {
			if matcher.Name == ProfileTypeLabel && matcher.Type == labels.MatchEqual {
				return matcher.Value
			}
		}
	}
	return "unknown"
}

// newID names a rule sent without an id: ten random letters.
func newID() string {
	b := make([]byte, idLength)
	for i := range b {
		b[i] = idAlphabet[rand.IntN(len(idAlphabet))]
	}
	return string(b)
}

// contentID names a provisioned rule without an id from what it says, so
// that it keeps its id (and its series) across restarts.
func contentID(r *settingsv1.RecordingRule) string {
	var b strings.Builder
	b.WriteString(r.MetricName)
	matchers := slices.Sorted(slices.Values(r.Matchers))
	groupBy := slices.Sorted(slices.Values(r.GroupBy))
	for _, s := range append(matchers, groupBy...) {
		b.WriteString("\x00" + s)
	}
	for _, l := range r.ExternalLabels {
		b.WriteString("\x00" + l.Name + "=" + l.Value)
	}
	b.WriteString("\x00" + FunctionName(r))
	sum := sha256.Sum256([]byte(b.String()))
	id := make([]byte, idLength)
	for i := range id {
		id[i] = idAlphabet[int(sum[i])%len(idAlphabet)]
	}
	return string(id)
}

// FunctionName is the rule's stack trace filter ("" when it has none).
func FunctionName(r *settingsv1.RecordingRule) string {
	if f := r.GetStacktraceFilter().GetFunctionName(); f != nil {
		return f.FunctionName
	}
	return ""
}

// Compiled is a rule ready to be evaluated against series labels.
type Compiled struct {
	ID         string
	MetricName string
	Matchers   []*labels.Matcher
	GroupBy    []string
	// External are the rule's external labels (never __name__ or
	// profiles_rule_id, which the exporter sets).
	External labels.Labels
	// Function, when set, keeps only the samples whose stack holds it.
	Function string
}

// Compile parses a stored rule's matchers.
func Compile(r *settingsv1.RecordingRule) (*Compiled, error) {
	c := &Compiled{ID: r.Id, MetricName: r.MetricName, GroupBy: slices.Clone(r.GroupBy), Function: FunctionName(r)}
	for _, m := range r.Matchers {
		ms, err := selectorParser.ParseMetricSelector(m)
		if err != nil {
			return nil, fmt.Errorf("rule %s: matcher %q: %w", r.Id, m, err)
		}
		c.Matchers = append(c.Matchers, ms...)
	}
	b := labels.NewScratchBuilder(len(r.ExternalLabels))
	for _, l := range r.ExternalLabels {
		if l.Name == prom.MetricNameLabel || l.Name == RuleIDLabel {
			continue
		}
		b.Add(l.Name, l.Value)
	}
	b.Sort()
	c.External = b.Labels()
	return c, nil
}

// Matches reports whether series labels, looked up through get, satisfy
// every matcher of the rule.
func (c *Compiled) Matches(get func(name string) string) bool {
	for _, m := range c.Matchers {
		if !m.Matches(get(m.Name)) {
			return false
		}
	}
	return true
}
