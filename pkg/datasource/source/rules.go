// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package source

import (
	"context"
	"errors"
)

// RecordingRule turns the profiles its matchers select into one Prometheus
// series per value set of GroupBy: each profile's total, or with
// FunctionName the samples whose stack holds that function. It is
// Pyroscope's settings.v1.RecordingRule in our terms.
type RecordingRule struct {
	// ID is the server's name for the rule; empty for a new rule.
	ID         string `json:"id,omitempty"`
	MetricName string `json:"metricName"`
	// ProfileType is the value of the rule's __profile_type__ matcher, as
	// the server reads it (read only).
	ProfileType    string      `json:"profileType,omitempty"`
	Matchers       []string    `json:"matchers"`
	GroupBy        []string    `json:"groupBy"`
	ExternalLabels []RuleLabel `json:"externalLabels"`
	// FunctionName, when set, keeps the samples whose stack holds it.
	FunctionName string `json:"functionName,omitempty"`
	// Generation is the stored rule's version: an update naming an older
	// one is refused as a conflict.
	Generation int64 `json:"generation,omitempty"`
	// Provisioned rules come from the server's configuration and cannot be
	// changed through the API (read only).
	Provisioned bool `json:"provisioned,omitempty"`
}

// RuleLabel is one of a rule's external labels.
type RuleLabel struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// RecordingRules is the optional capability of a Source whose server keeps
// recording rules (Pyroscope's settings.v1.RecordingRulesService: the
// embedded store, or a Pyroscope with rules enabled).
type RecordingRules interface {
	ListRecordingRules(ctx context.Context) ([]RecordingRule, error)
	GetRecordingRule(ctx context.Context, id string) (RecordingRule, error)
	UpsertRecordingRule(ctx context.Context, r RecordingRule) (RecordingRule, error)
	DeleteRecordingRule(ctx context.Context, id string) error
}

// ErrNoRecordingRules is the error of a Source without the capability.
var ErrNoRecordingRules = errors.New("the profile server has no recording rules API")

// RulesOf returns src's recording rules capability, looking through
// wrappers that expose an Inner source; ErrNoRecordingRules when none has it.
func RulesOf(src Source) (RecordingRules, error) {
	for src != nil {
		if r, ok := src.(RecordingRules); ok {
			return r, nil
		}
		w, ok := src.(interface{ Inner() Source })
		if !ok {
			break
		}
		src = w.Inner()
	}
	return nil, ErrNoRecordingRules
}

// RuleRefusal is a profile server's refusal of a rule call, with its own
// words and the HTTP status to answer it with (400 invalid, 404 unknown id,
// 409 stale generation or provisioned rule, 501 no rules API).
type RuleRefusal struct {
	Status int
	Msg    string
	Err    error
}

func (e *RuleRefusal) Error() string { return e.Msg }
func (e *RuleRefusal) Unwrap() error { return e.Err }
