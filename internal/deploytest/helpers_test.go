// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package deploytest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	require.FileExists(t, filepath.Join(root, "go.mod"))
	return root
}

// dockerfile is the instructions of a Dockerfile's last stage, continuation
// lines joined, by instruction (several of one kind kept in order).
type dockerfile struct {
	stages       []string // FROM lines
	instructions map[string][]string
}

func parseDockerfile(t *testing.T, name string) dockerfile {
	t.Helper()
	b, err := os.ReadFile(name)
	require.NoError(t, err)
	var lines []string
	var cur strings.Builder
	for _, l := range strings.Split(string(b), "\n") {
		trimmed := strings.TrimSpace(l)
		if cur.Len() == 0 && (trimmed == "" || strings.HasPrefix(trimmed, "#")) {
			continue
		}
		if strings.HasSuffix(trimmed, "\\") {
			cur.WriteString(strings.TrimSuffix(trimmed, "\\") + " ")
			continue
		}
		cur.WriteString(trimmed)
		lines = append(lines, cur.String())
		cur.Reset()
	}
	d := dockerfile{instructions: map[string][]string{}}
	for _, l := range lines {
		op, rest, _ := strings.Cut(l, " ")
		op = strings.ToUpper(op)
		if op == "FROM" {
			d.stages = append(d.stages, rest)
			d.instructions = map[string][]string{} // only the last stage counts
			continue
		}
		d.instructions[op] = append(d.instructions[op], strings.TrimSpace(rest))
	}
	return d
}

// last returns the last instruction of a kind (the one Docker applies).
func (d dockerfile) last(t *testing.T, op string) string {
	t.Helper()
	v := d.instructions[op]
	require.NotEmpty(t, v, "the image's %s", op)
	return v[len(v)-1]
}

// execForm parses an instruction's JSON (exec) form.
func execForm(t *testing.T, s string) []string {
	t.Helper()
	var args []string
	require.NoError(t, json.Unmarshal([]byte(s), &args), "exec form (JSON array): %s", s)
	return args
}
