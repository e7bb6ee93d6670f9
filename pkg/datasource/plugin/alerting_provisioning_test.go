// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/grafana/grafana-plugin-sdk-go/backend"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"
)

// provisionedRules is the part of Grafana's alerting provisioning file the
// test reads.
type provisionedRules struct {
	APIVersion int `yaml:"apiVersion"`
	Groups     []struct {
		Name  string `yaml:"name"`
		Rules []struct {
			UID       string `yaml:"uid"`
			Condition string `yaml:"condition"`
			Data      []struct {
				RefID             string `yaml:"refId"`
				DatasourceUID     string `yaml:"datasourceUid"`
				RelativeTimeRange struct {
					From int64 `yaml:"from"`
					To   int64 `yaml:"to"`
				} `yaml:"relativeTimeRange"`
				Model map[string]any `yaml:"model"`
			} `yaml:"data"`
		} `yaml:"rules"`
	} `yaml:"groups"`
}

// TestProvisionedAlertRuleQueriesCanAlert sends each datasource query of the
// example alert rules as the alert engine would (the model as JSON, the
// relative range ending now) and expects an answer, not a refusal: the
// files name an alertable query type with the fields it needs.
func TestProvisionedAlertRuleQueriesCanAlert(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "..", "provisioning", "alerting", "*.yaml"))
	require.NoError(t, err)
	require.NotEmpty(t, files, "an example alert rule under provisioning/alerting")
	d := newDS(t, alertStore(t))
	for _, file := range files {
		b, err := os.ReadFile(file)
		require.NoError(t, err)
		var p provisionedRules
		require.NoError(t, yaml.Unmarshal(b, &p), file)
		require.Equal(t, 1, p.APIVersion, file)
		queries := 0
		for _, g := range p.Groups {
			for _, rule := range g.Rules {
				refIDs := map[string]bool{}
				for _, dq := range rule.Data {
					refIDs[dq.RefID] = true
					if dq.DatasourceUID == "__expr__" {
						continue
					}
					queries++
					js, err := json.Marshal(dq.Model)
					require.NoError(t, err)
					kind, _ := dq.Model["queryType"].(string)
					require.True(t, isAlertQueryType(kind), "%s: rule %s query %s: %q cannot alert", file, rule.UID, dq.RefID, kind)
					interval, _ := dq.Model["intervalMs"].(int)
					maxPoints, _ := dq.Model["maxDataPoints"].(int)
					now := time.Now()
					req := alertRequest(kind, map[string]any{})
					req.Queries = []backend.DataQuery{{
						RefID: "A", QueryType: kind, JSON: js,
						TimeRange: backend.TimeRange{
							From: now.Add(-time.Duration(dq.RelativeTimeRange.From) * time.Second),
							To:   now.Add(-time.Duration(dq.RelativeTimeRange.To) * time.Second),
						},
						Interval:      time.Duration(interval) * time.Millisecond,
						MaxDataPoints: int64(maxPoints),
					}}
					resp, err := d.QueryData(context.Background(), req)
					require.NoError(t, err)
					require.NoError(t, resp.Responses["A"].Error, "%s: rule %s query %s", file, rule.UID, dq.RefID)
				}
				require.True(t, refIDs[rule.Condition], "%s: rule %s: condition %q is one of its queries", file, rule.UID, rule.Condition)
			}
		}
		require.Positive(t, queries, "%s holds a query of the datasource", file)
	}
}
