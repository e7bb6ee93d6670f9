// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package querier

import (
	querierv1 "github.com/grafana/pyroscope/api/gen/proto/go/querier/v1"

	"github.com/emberscope/emberscope/pkg/profile/flame"
)

// The answers below are cut twice, as Pyroscope's are: once where the
// profiles are merged (the query backend's tree, at most maxNodes nodes by
// total, the rest folded into "other"), then again when the flamegraph is
// laid out from that tree.

// cut returns t as a ptree with at most about maxNodes nodes kept.
func cut(t *flame.Tree, maxNodes int) *ptree {
	pt := fromFlame(t)
	return pt.truncate(pt.minTotal(maxNodes))
}

// FlameGraph turns t into Pyroscope's flamegraph, keeping the maxNodes
// largest nodes and folding the rest into "other".
func FlameGraph(t *flame.Tree, maxNodes int) *querierv1.FlameGraph {
	return flameGraph(cut(t, maxNodes), maxNodes)
}

// TreeBytes encodes t in Pyroscope's binary tree format
// (PROFILE_FORMAT_TREE), keeping the maxNodes largest nodes.
func TreeBytes(t *flame.Tree, maxNodes int) []byte {
	return cut(t, maxNodes).marshal()
}

// DiffFlameGraph lays out left and right together as Pyroscope's diff.
func DiffFlameGraph(left, right *flame.Tree, maxNodes int) *querierv1.FlameGraphDiff {
	return diffFlameGraph(cut(left, maxNodes), cut(right, maxNodes), maxNodes)
}
