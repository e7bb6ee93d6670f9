// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package dataframes

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/grafana/grafana-plugin-sdk-go/data"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// checkGolden compares the JSON of frames (as data.FrameToJSON writes each
// one, indented) with testdata/<name>.golden.json, rewriting it with -update.
func checkGolden(t *testing.T, name string, frames ...*data.Frame) {
	t.Helper()
	var all []json.RawMessage
	for _, f := range frames {
		b, err := data.FrameToJSON(f, data.IncludeAll)
		require.NoError(t, err)
		all = append(all, b)
	}
	got, err := json.Marshal(all)
	require.NoError(t, err)
	var indented bytes.Buffer
	require.NoError(t, json.Indent(&indented, got, "", "  "))
	indented.WriteByte('\n')

	path := filepath.Join("testdata", name+".golden.json")
	if *update {
		require.NoError(t, os.WriteFile(path, indented.Bytes(), 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "missing golden file; run go test ./pkg/datasource/dataframes -update")
	require.Equal(t, string(want), indented.String(), "frame JSON differs from %s; rerun with -update if the change is intended", path)
}
