// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package parca

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/pkg/profile/flame"
)

// A small FLAMEGRAPH_TABLE in Parca's shape: location 1 inlines b into a
// (lines[0] is the callee b), location 2 is unsymbolized.
const smallFlamegraph = `{
 "root": {"cumulative": "10", "children": [
  {"meta": {"locationIndex": 1, "lineIndex": 1}, "cumulative": "10", "children": [
   {"meta": {"locationIndex": 1, "lineIndex": 0}, "cumulative": "8", "children": [
    {"meta": {"locationIndex": 2, "lineIndex": 0}, "cumulative": "3", "children": []}
   ]}
  ]}
 ]},
 "stringTable": ["", "main.a", "main.b[go.shape.int]"],
 "locations": [
  {"address": "4096", "lines": [{"functionIndex": 2}, {"functionIndex": 1}]},
  {"address": "255", "lines": []}
 ],
 "function": [{"nameStringIndex": 1}, {"nameStringIndex": 2}]
}`

func TestTreeFromFlamegraph(t *testing.T) {
	var fg wireFlamegraph
	require.NoError(t, json.Unmarshal([]byte(smallFlamegraph), &fg))
	tree, err := treeFromFlamegraph(&fg)
	require.NoError(t, err)

	type row struct {
		depth       int
		name        string
		total, self int64
	}
	var rows []row
	tree.Walk(func(n flame.NodeID, d int) {
		rows = append(rows, row{d, tree.Name(n), tree.NodeTotal(n), tree.Self(n)})
	})
	assert.Equal(t, []row{
		{0, "total", 10, 0},
		{1, "main.a", 10, 2},
		{2, "main.b", 8, 5},
		{3, "0xff", 3, 3},
	}, rows)
}

func TestTreeFromFlamegraphBadIndexes(t *testing.T) {
	for _, tc := range []struct{ json, want string }{
		{`{"root":{"cumulative":"1","children":[{"meta":{"locationIndex":3},"cumulative":"1"}]},"locations":[]}`,
			"node at depth 1: location index 3 is beyond the 0 locations"},
		{`{"root":{"cumulative":"1","children":[{"meta":{"locationIndex":1,"lineIndex":2},"cumulative":"1"}]},
		   "locations":[{"lines":[{"functionIndex":1}]}],"function":[{"nameStringIndex":0}],"stringTable":[""]}`,
			"location 1: line index 2 is beyond its 1 lines"},
		{`{"root":{"cumulative":"1","children":[{"meta":{"locationIndex":1},"cumulative":"1"}]},
		   "locations":[{"lines":[{"functionIndex":4}]}],"function":[],"stringTable":[""]}`,
			"function index 4 is beyond the 0 functions"},
		{`{"root":{"cumulative":"1","children":[{"cumulative":"1"}]}}`, "node has no meta"},
	} {
		var fg wireFlamegraph
		require.NoError(t, json.Unmarshal([]byte(tc.json), &fg))
		_, err := treeFromFlamegraph(&fg)
		require.ErrorContains(t, err, tc.want)
	}
}
