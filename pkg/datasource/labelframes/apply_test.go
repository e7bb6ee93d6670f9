// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package labelframes_test

import (
	"context"
	"regexp"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/pkg/datasource/labelframes"
	"github.com/emberscope/emberscope/pkg/datasource/query"
	"github.com/emberscope/emberscope/pkg/profile/flame"
	"github.com/emberscope/emberscope/pkg/profile/flame/flametest"
)

// flamegraph runs a parsed query the way the plugin does: Build with the
// query's virtual labels, then Apply its operations.
func flamegraph(t *testing.T, src *testSource, q *query.Query) *flame.Tree {
	t.Helper()
	labels, sep := q.VirtualLabels()
	built, err := labelframes.Build(context.Background(), src, stacksRequest(q.Selector), labels, sep, labelframes.Options{})
	require.NoError(t, err)
	tree, err := labelframes.Apply(built, q.Ops)
	require.NoError(t, err)
	return tree
}

func TestBuildAndApplyRunTheWholeQuery(t *testing.T) {
	ctx := context.Background()
	p := realCPUProfile(t)
	src := newProfileSource(t, p)

	q, err := query.Parse(`focus(frames_from_label(` + cpuType + checkout + `, "category", sep="::"), "burn")`)
	require.NoError(t, err)
	tree := flamegraph(t, src, q)

	// Focus keeps the virtual frames on top and roots each under them at the burn* frames.
	obs := child(t, tree, flame.Root, "observability", flame.KindVirtual)
	metrics := child(t, tree, obs, "metrics", flame.KindVirtual)
	burn := child(t, tree, metrics, funcName(burnMetrics), flame.KindFunction)
	want := sumSamples(t, p, func(s *profile.Sample) bool {
		return sampleLabels(s)["category"] == "observability :: metrics" && inStack(s, funcName(burnMetrics))
	})
	assert.Equal(t, want, tree.NodeTotal(burn))

	// Applying runs the transform on the tree with the virtual frames.
	built, err := labelframes.Build(ctx, src, stacksRequest(checkout), []string{"category"}, "::", labelframes.Options{})
	require.NoError(t, err)
	assert.Equal(t, flametest.Dump(flame.Focus(built, regexp.MustCompile("burn"))), flametest.Dump(tree))
}

func TestApplyWithoutVirtualFrames(t *testing.T) {
	ctx := context.Background()
	src := newProfileSource(t, realCPUProfile(t))
	q, err := query.Compile(query.Model{ProfileTypeID: cpuType, Expr: `truncate(reverse(` + checkout + `), 2)`})
	require.NoError(t, err)
	tree := flamegraph(t, src, q)
	plain, err := src.MergeStacks(ctx, stacksRequest(checkout))
	require.NoError(t, err)
	assert.Equal(t, flametest.Dump(flame.TruncateDepth(flame.Reverse(plain), 2)), flametest.Dump(tree))
	assert.Equal(t, plain.Total(), tree.Total())
}

type unknownOp struct{}

func (unknownOp) Func() string      { return "mystery" }
func (unknownOp) Args() []query.Arg { return nil }

func TestApplyRejectsUnknownOps(t *testing.T) {
	_, err := labelframes.Apply(flame.New(), []query.Op{query.Reverse{}, unknownOp{}})
	assert.EqualError(t, err, "mystery(...) has no flamegraph transform")
}
