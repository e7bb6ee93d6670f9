// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package rules

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

	settingsv1 "github.com/grafana/pyroscope/api/gen/proto/go/settings/v1"
	"go.yaml.in/yaml/v3"
	"google.golang.org/protobuf/encoding/protojson"
)

// LoadFile reads provisioned rules: a YAML or JSON list of rules in the
// shape of Pyroscope's API (metricName, matchers, groupBy, externalLabels,
// stacktraceFilter, optionally id), as Pyroscope's static rules are given.
// Each is validated as an Upsert would be; the error names the file and
// the rule's position.
func LoadFile(path string) ([]*settingsv1.RecordingRule, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("recording rules: %w", err)
	}
	var items []any
	if err := yaml.Unmarshal(b, &items); err != nil {
		return nil, fmt.Errorf("recording rules %s: not a YAML or JSON list of rules: %w", path, err)
	}
	out := make([]*settingsv1.RecordingRule, 0, len(items))
	for i, item := range items {
		raw, err := json.Marshal(item)
		if err != nil {
			return nil, fmt.Errorf("recording rules %s: rule %d: %w", path, i+1, err)
		}
		r := &settingsv1.RecordingRule{}
		if err := protojson.Unmarshal(raw, r); err != nil {
			return nil, fmt.Errorf("recording rules %s: rule %d: %w", path, i+1, err)
		}
		if err := Validate(r); err != nil {
			return nil, fmt.Errorf("recording rules %s: rule %d (%s): %s", path, i+1, r.MetricName, strings.ReplaceAll(err.Error(), "\n", "; "))
		}
		out = append(out, r)
	}
	return out, nil
}

// Validate checks a rule to be provisioned as an Upsert would check it
// (an empty id is allowed: the rule is then named from its content).
func Validate(r *settingsv1.RecordingRule) error {
	check := &settingsv1.UpsertRecordingRuleRequest{
		Id: r.Id, MetricName: r.MetricName, Matchers: r.Matchers, GroupBy: r.GroupBy,
		ExternalLabels: r.ExternalLabels, StacktraceFilter: r.StacktraceFilter,
	}
	if check.Id == "" {
		check.Id = "provisioned"
	}
	return validateUpsert(check)
}
