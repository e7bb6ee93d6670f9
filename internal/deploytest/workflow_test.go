// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package deploytest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"
)

type workflow struct {
	On   map[string]any `yaml:"on"`
	Jobs map[string]struct {
		If    string   `yaml:"if"`
		Needs []string `yaml:"needs"`
		Steps []struct {
			Uses string            `yaml:"uses"`
			Run  string            `yaml:"run"`
			Env  map[string]string `yaml:"env"`
		} `yaml:"steps"`
	} `yaml:"jobs"`
}

// The CI workflow lints, type checks, tests, builds and packages on every
// push and pull request, and deploys on main with the deploy script, every
// setting it needs coming from a secret.
func TestCIWorkflow(t *testing.T) {
	root := repoRoot(t)
	b, err := os.ReadFile(filepath.Join(root, ".github", "workflows", "ci.yml"))
	require.NoError(t, err)
	var w workflow
	require.NoError(t, yaml.Unmarshal(b, &w))
	assert.Contains(t, w.On, "push")
	assert.Contains(t, w.On, "pull_request")

	var runs []string
	for name, j := range w.Jobs {
		if name == "deploy" {
			continue
		}
		assert.Empty(t, j.If, "%s runs on every push and pull request", name)
		for _, s := range j.Steps {
			runs = append(runs, s.Run)
		}
	}
	all := strings.Join(runs, "\n")
	for _, want := range []string{"npm run lint", "npm run typecheck", ".ci/run", "go tool mage package", "go tool mage license", "go vet"} {
		assert.Contains(t, all, want)
	}

	// Every npm script and mage target the workflow runs exists.
	var pkg struct{ Scripts map[string]string }
	pb, err := os.ReadFile(filepath.Join(root, "package.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(pb, &pkg))
	for _, m := range regexp.MustCompile(`npm run ([\w:-]+)`).FindAllStringSubmatch(all, -1) {
		assert.Contains(t, pkg.Scripts, m[1], "npm script %s", m[1])
	}
	magefile, err := os.ReadFile(filepath.Join(root, "Magefile.go"))
	require.NoError(t, err)
	for _, m := range regexp.MustCompile(`go tool mage (\w+)`).FindAllStringSubmatch(all, -1) {
		target := strings.ToUpper(m[1][:1]) + m[1][1:]
		assert.Regexp(t, `(?m)^func `+target+`\(`, string(magefile), "mage target %s", m[1])
	}

	deploy, ok := w.Jobs["deploy"]
	require.True(t, ok)
	assert.Contains(t, deploy.If, "refs/heads/main")
	assert.Contains(t, deploy.If, "push")
	assert.Contains(t, deploy.Needs, "package")
	assert.Contains(t, deploy.Needs, "test")
	var step *struct {
		Uses string            `yaml:"uses"`
		Run  string            `yaml:"run"`
		Env  map[string]string `yaml:"env"`
	}
	for i, s := range deploy.Steps {
		if strings.Contains(s.Run, "scripts/deploy-dev.sh") {
			step = &deploy.Steps[i]
		}
	}
	require.NotNil(t, step, "deploys with the script in the repository")
	script, err := os.ReadFile(filepath.Join(root, "scripts", "deploy-dev.sh"))
	require.NoError(t, err)
	// Every setting the script reads from the environment is passed from a secret.
	for _, m := range regexp.MustCompile(`\$\{?((?:DEPLOY|GRAFANA)_[A-Z_]+)`).FindAllStringSubmatch(string(script), -1) {
		if m[1] == "DEPLOY_WAIT_SECONDS" {
			continue
		}
		assert.Equal(t, "${{ secrets."+m[1]+" }}", step.Env[m[1]], "%s from a secret", m[1])
	}
	for _, v := range []string{"DEPLOY_TARGET", "GRAFANA_URL", "GRAFANA_TOKEN"} {
		assert.Contains(t, string(script), v)
	}
}
