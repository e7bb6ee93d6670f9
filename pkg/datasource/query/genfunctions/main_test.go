// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"os"
	"testing"

	"github.com/stretchr/testify/require"
)

// editorList is the editor's function list, in the repository.
const editorList = "../../../../src/datasource/language/functions.json"

// TestEditorListMatchesTheFunctionTable fails when pkg/datasource/query's function
// table and the editor's list differ: a function added, removed or renamed,
// its arguments or its doc changed on one side only. Run
// `go generate ./pkg/datasource/query` to bring the editor's list up to date.
func TestEditorListMatchesTheFunctionTable(t *testing.T) {
	want, err := render()
	require.NoError(t, err)
	got, err := os.ReadFile(editorList)
	require.NoError(t, err, "the editor's function list is missing: run go generate ./pkg/datasource/query")
	require.Equal(t, string(want), string(got), "%s differs from pkg/datasource/query's function table: run go generate ./pkg/datasource/query", editorList)
}
