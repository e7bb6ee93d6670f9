// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package rules_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/pkg/store/rules"
)

// TestLoadFileErrors: a provisioning file that cannot be used is refused
// with the file, the rule's position and what is wrong with it.
func TestLoadFileErrors(t *testing.T) {
	dir := t.TempDir()
	cases := map[string]struct{ content, want string }{
		"not-a-list":    {"metricName: x\n", "not a YAML or JSON list of rules"},
		"unknown-field": {"- metricNam: profiles_recorded_x\n", "rule 1:"},
		"second-rule-invalid": {`
- metricName: profiles_recorded_ok
  matchers: ['{__profile_type__="process_cpu:cpu:nanoseconds:cpu:nanoseconds"}']
- metricName: profiles_recorded_bad
  matchers: ['{service_name="x"}']
  groupBy: [not-valid]
`, `rule 2 (profiles_recorded_bad): matchers must contain a "__profile_type__" matcher; group_by label "not-valid" must match`},
	}
	for name, c := range cases {
		path := filepath.Join(dir, name+".yaml")
		require.NoError(t, os.WriteFile(path, []byte(c.content), 0o600))
		_, err := rules.LoadFile(path)
		require.ErrorContains(t, err, path, name)
		require.ErrorContains(t, err, c.want, name)
	}
	_, err := rules.LoadFile(filepath.Join(dir, "missing.yaml"))
	require.ErrorContains(t, err, "missing.yaml")
}

// TestLoadFileJSON: the file may be JSON, in the API's field names.
func TestLoadFileJSON(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rules.json")
	require.NoError(t, os.WriteFile(path, []byte(`[{"id": "fixed", "metricName": "profiles_recorded_x",
		"matchers": ["{__profile_type__=\"process_cpu:cpu:nanoseconds:cpu:nanoseconds\"}"],
		"stacktraceFilter": {"functionName": {"functionName": "main.work"}}}]`), 0o600))
	got, err := rules.LoadFile(path)
	require.NoError(t, err)
	require.Len(t, got, 1)
	require.Equal(t, "fixed", got[0].Id)
	require.Equal(t, "main.work", rules.FunctionName(got[0]))
}
