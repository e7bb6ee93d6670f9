// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package querier

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/pkg/profile/flame"
)

// The layouts below follow Pyroscope v2.2.1's answers; the replay suite in
// pkg/store checks them against the recorded ones node for node.

func TestFlameGraphLayout(t *testing.T) {
	tr := flame.New()
	tr.InsertStackNames(5, "main", "b")
	tr.InsertStackNames(3, "main", "a")
	tr.InsertStackNames(2, "main")
	tr.InsertStackNames(1, "z")
	fg := FlameGraph(tr, 100)
	// Names in the order a depth-first walk taking the last child first meets them.
	require.Equal(t, []string{"total", "z", "main", "b", "a"}, fg.Names)
	require.Equal(t, int64(11), fg.Total)
	require.Equal(t, int64(5), fg.MaxSelf)
	// [x_delta, total, self, name]; children by name, after their parent's
	// self; x relative to the end of the previous node of the level.
	require.Equal(t, []int64{0, 11, 0, 0}, fg.Levels[0].Values)
	require.Equal(t, []int64{0, 10, 2, 2, 0, 1, 1, 1}, fg.Levels[1].Values)
	require.Equal(t, []int64{2, 3, 3, 4, 0, 5, 5, 3}, fg.Levels[2].Values)
}

func TestFlameGraphFoldsIntoOther(t *testing.T) {
	tr := flame.New()
	tr.InsertStackNames(10, "main", "big")
	tr.InsertStackNames(2, "main", "small1")
	tr.InsertStackNames(1, "main", "small2")
	tr.InsertStackNames(1, "tiny")
	fg := FlameGraph(tr, 2) // keeps main and big
	require.Equal(t, []int64{0, 14, 0, 0}, fg.Levels[0].Values)
	require.Equal(t, []string{"total", "other", "main", "big"}, fg.Names)
	// main, then other (tiny) after it.
	require.Equal(t, []int64{0, 13, 0, 2, 0, 1, 1, 1}, fg.Levels[1].Values)
	// big, then other (small1 + small2) right after it.
	require.Equal(t, []int64{0, 10, 10, 3, 0, 3, 3, 1}, fg.Levels[2].Values)
}

func TestTreeBytes(t *testing.T) {
	tr := flame.New()
	tr.InsertStackNames(5, "main", "b")
	tr.InsertStackNames(3, "main", "a")
	tr.InsertStackNames(2, "main")
	tr.InsertStackNames(1, "z")
	// Depth first, last child first: name length, name, self, children.
	want := []byte{0, 0, 2, 1, 'z', 1, 0, 4, 'm', 'a', 'i', 'n', 2, 2, 1, 'b', 5, 0, 1, 'a', 3, 0}
	require.Equal(t, want, TreeBytes(tr, 100))
	require.Empty(t, TreeBytes(flame.New(), 100), "an empty tree is no bytes")
}

func TestDiffFlameGraphLayout(t *testing.T) {
	l, r := flame.New(), flame.New()
	l.InsertStackNames(4, "main", "a")
	r.InsertStackNames(6, "main", "b")
	r.InsertStackNames(1, "main", "a")
	fg := DiffFlameGraph(l, r, 100)
	require.Equal(t, int64(4), fg.LeftTicks)
	require.Equal(t, int64(7), fg.RightTicks)
	require.Equal(t, []int64{0, 4, 0, 0, 7, 0, 0}, fg.Levels[0].Values)
	require.Equal(t, []int64{0, 4, 0, 0, 7, 0, 1}, fg.Levels[1].Values)
	require.Equal(t, []string{"total", "main", "b", "a"}, fg.Names)
	require.Equal(t, []int64{0, 4, 4, 0, 1, 1, 3, 0, 0, 0, 0, 6, 6, 2}, fg.Levels[2].Values)
}
