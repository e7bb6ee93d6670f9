// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package pyroscopereplay

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/emberscope/emberscope/internal/fixtures"
)

func TestLoadReadsEveryRecording(t *testing.T) {
	exs, err := Load(fixtures.Pyroscope())
	require.NoError(t, err)
	require.Len(t, exs, 63)
	for i, ex := range exs {
		assert.Equal(t, i+1, ex.Number, ex.Name)
		assert.NotZero(t, ex.Status, ex.Name)
		if rpc := ex.RPC(); rpc != "" {
			req := NewRequest(rpc)
			require.NotNil(t, req, ex.Name)
			// 63 sends spanSelector to SelectMergeProfile, whose request has
			// no such field: Pyroscope ignores it (and so does the store).
			require.NoError(t, protojson.UnmarshalOptions{DiscardUnknown: ex.Number == 63}.Unmarshal(ex.Body, req), ex.Name)
			if ex.Status == 200 {
				_, err := Decode(rpc, ex.Response)
				require.NoError(t, err, ex.Name)
			} else {
				e, err := ex.Error()
				require.NoError(t, err, ex.Name)
				assert.NotEmpty(t, e.Code, ex.Name)
			}
		} else {
			assert.Equal(t, "/ingest", ex.Path, ex.Name)
			assert.NotEmpty(t, ex.Body, ex.Name)
		}
	}
	assert.Equal(t, "pushed-profiles/labeled.cpu.redated.pb.gz", exs[0].BodyFile)
	assert.Equal(t, "this is not a profile", string(exs[37].Body))
	assert.Equal(t, "rec-quoted{env=\"demo\"}", exs[6].Query().Get("name"))
}

func TestTreeNodesDecodesTheRecordedTree(t *testing.T) {
	exs, err := Load(fixtures.Pyroscope())
	require.NoError(t, err)
	ex := exs[17]
	require.Equal(t, "18-merge-labeled-cpu-tree-format", ex.Name)
	m, err := Decode(ex.RPC(), ex.Response)
	require.NoError(t, err)
	nodes, err := TreeNodes(m.(interface{ GetTree() []byte }).GetTree())
	require.NoError(t, err)
	assert.Equal(t, "0 0 ", nodes[0], "a nameless root first")
	assert.Equal(t, "1 10000000 runtime.systemstack", nodes[1], "its last child first")
}
