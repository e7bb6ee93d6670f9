// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package labelframes_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/pkg/datasource/labelframes"
	"github.com/emberscope/emberscope/pkg/datasource/query"
	"github.com/emberscope/emberscope/pkg/profile/flame"
	"github.com/emberscope/emberscope/pkg/profile/flame/flametest"
)

const checkout = `{service_name="checkout"}`

// child finds the child of n with name and kind, or fails the test.
func child(t *testing.T, tr *flame.Tree, n flame.NodeID, name string, kind flame.Kind) flame.NodeID {
	t.Helper()
	for _, c := range tr.Children(n) {
		if tr.Name(c) == name && tr.Kind(c) == kind {
			return c
		}
	}
	var have []string
	for _, c := range tr.Children(n) {
		have = append(have, fmt.Sprintf("%s(kind %d)", tr.Name(c), tr.Kind(c)))
	}
	t.Fatalf("no child %q of kind %d under %q; children: %s", name, kind, tr.Name(n), strings.Join(have, ", "))
	return -1
}

// childNames lists the names of n's children in Walk order.
func childNames(tr *flame.Tree, n flame.NodeID) []string {
	var out []string
	for _, c := range tr.Children(n) {
		out = append(out, tr.Name(c))
	}
	return out
}

// dumpBelow renders the subtree under n (n excluded) as name total/self lines.
func dumpBelow(tr *flame.Tree, n flame.NodeID) string {
	var b strings.Builder
	var rec func(flame.NodeID, int)
	rec = func(n flame.NodeID, depth int) {
		for _, c := range tr.Children(n) {
			fmt.Fprintf(&b, "%s%s %d/%d\n", strings.Repeat("  ", depth), tr.Name(c), tr.NodeTotal(c), tr.Self(c))
			rec(c, depth+1)
		}
	}
	rec(n, 0)
	return b.String()
}

func hasLabel(name, value string) func(map[string]string) bool {
	return func(ls map[string]string) bool { return ls[name] == value }
}

func TestBuildOneLabel(t *testing.T) {
	ctx := context.Background()
	p := realCPUProfile(t)
	src := newProfileSource(t, p)
	req := stacksRequest(checkout)

	tree, err := labelframes.Build(ctx, src, req, []string{"category"}, "", labelframes.Options{})
	require.NoError(t, err)
	plain, err := src.MergeStacks(ctx, req)
	require.NoError(t, err)

	all := sumWhere(t, p, func(map[string]string) bool { return true })
	assert.Equal(t, all, plain.Total())
	assert.Equal(t, plain.Total(), tree.Total(), "root total equals the plain query's")

	values := []string{"api", "observability :: logs", "observability :: metrics", "storage"}
	assert.Equal(t, append([]string{"(no category)"}, values...), childNames(tree, flame.Root))
	for _, v := range values {
		n := child(t, tree, flame.Root, v, flame.KindVirtual)
		assert.Equal(t, "category", tree.VirtualLabel(n))
		assert.Equal(t, sumWhere(t, p, hasLabel("category", v)), tree.NodeTotal(n), v)
		assert.Zero(t, tree.Self(n), "virtual frames hold no samples of their own")
	}
	missing := child(t, tree, flame.Root, labelframes.MissingName("category"), flame.KindVirtual)
	assert.Equal(t, sumWhere(t, p, hasLabel("category", "")), tree.NodeTotal(missing))
	assert.NotZero(t, tree.NodeTotal(missing), "the profile has samples without category")

	// Under a value's frame are exactly that value's stacks.
	storage, err := src.MergeStacks(ctx, stacksRequest(`{service_name="checkout",category="storage"}`))
	require.NoError(t, err)
	storageNode := child(t, tree, flame.Root, "storage", flame.KindVirtual)
	assert.Equal(t, dumpBelow(storage, flame.Root), dumpBelow(tree, storageNode))
	assert.Contains(t, dumpBelow(tree, storageNode), funcName(burnStorage))
	assert.NotContains(t, dumpBelow(tree, storageNode), funcName(burnAPIRead))
	assert.Contains(t, dumpBelow(tree, missing), funcName(burnUnlabelled))
	assert.Contains(t, dumpBelow(tree, missing), funcName(burnBackground))
}

func TestBuildSplitsValuesOnSep(t *testing.T) {
	ctx := context.Background()
	p := realCPUProfile(t)
	src := newProfileSource(t, p)

	tree, err := labelframes.Build(ctx, src, stacksRequest(checkout), []string{"category"}, "::", labelframes.Options{})
	require.NoError(t, err)

	assert.Equal(t, []string{"(no category)", "api", "observability", "storage"}, childNames(tree, flame.Root))
	obs := child(t, tree, flame.Root, "observability", flame.KindVirtual)
	assert.Equal(t, []string{"logs", "metrics"}, childNames(tree, obs))
	metrics := child(t, tree, obs, "metrics", flame.KindVirtual)
	logs := child(t, tree, obs, "logs", flame.KindVirtual)
	wantMetrics := sumWhere(t, p, hasLabel("category", "observability :: metrics"))
	wantLogs := sumWhere(t, p, hasLabel("category", "observability :: logs"))
	assert.Equal(t, wantMetrics, tree.NodeTotal(metrics))
	assert.Equal(t, wantLogs, tree.NodeTotal(logs))
	assert.Equal(t, wantMetrics+wantLogs, tree.NodeTotal(obs))
	assert.Equal(t, "category", tree.VirtualLabel(metrics))
	assert.Contains(t, dumpBelow(tree, metrics), funcName(burnMetrics))
	assert.NotContains(t, dumpBelow(tree, metrics), funcName(burnLogs))
	assert.Equal(t, sumWhere(t, p, func(map[string]string) bool { return true }), tree.Total())
}

func TestBuildNestsTwoLabels(t *testing.T) {
	ctx := context.Background()
	p := realCPUProfile(t)
	src := newProfileSource(t, p)

	tree, err := labelframes.Build(ctx, src, stacksRequest(checkout), []string{"category", "route"}, "", labelframes.Options{})
	require.NoError(t, err)
	assert.Equal(t, sumWhere(t, p, func(map[string]string) bool { return true }), tree.Total())

	both := func(c, r string) func(map[string]string) bool {
		return func(ls map[string]string) bool { return ls["category"] == c && ls["route"] == r }
	}
	api := child(t, tree, flame.Root, "api", flame.KindVirtual)
	assert.Equal(t, []string{"(no route)", "/read"}, childNames(tree, api))
	read := child(t, tree, api, "/read", flame.KindVirtual)
	assert.Equal(t, "route", tree.VirtualLabel(read))
	assert.Equal(t, sumWhere(t, p, both("api", "/read")), tree.NodeTotal(read))
	apiNoRoute := child(t, tree, api, "(no route)", flame.KindVirtual)
	assert.Equal(t, sumWhere(t, p, both("api", "")), tree.NodeTotal(apiNoRoute))
	assert.Contains(t, dumpBelow(tree, apiNoRoute), funcName(burnAPIInternal))

	noCat := child(t, tree, flame.Root, "(no category)", flame.KindVirtual)
	assert.Equal(t, []string{"(no route)", "/bg"}, childNames(tree, noCat))
	bg := child(t, tree, noCat, "/bg", flame.KindVirtual)
	assert.Equal(t, sumWhere(t, p, both("", "/bg")), tree.NodeTotal(bg))
	none := child(t, tree, noCat, "(no route)", flame.KindVirtual)
	assert.Equal(t, sumWhere(t, p, both("", "")), tree.NodeTotal(none))

	storage := child(t, tree, flame.Root, "storage", flame.KindVirtual)
	assert.Equal(t, []string{"/write"}, childNames(tree, storage), "no empty missing frame where every sample has the label")
}

func TestBuildFoldsValuesBeyondLimit(t *testing.T) {
	ctx := context.Background()
	p := realCPUProfile(t)
	src := newProfileSource(t, p)

	values := []string{"api", "observability :: logs", "observability :: metrics", "storage"}
	totals := map[string]int64{}
	for _, v := range values {
		totals[v] = sumWhere(t, p, hasLabel("category", v))
	}
	ranked := append([]string(nil), values...)
	// Largest first, ties by value: the order Build keeps.
	for i := range ranked {
		for j := i + 1; j < len(ranked); j++ {
			a, b := ranked[i], ranked[j]
			if totals[b] > totals[a] || (totals[b] == totals[a] && b < a) {
				ranked[i], ranked[j] = b, a
			}
		}
	}

	tree, err := labelframes.Build(ctx, src, stacksRequest(checkout), []string{"category"}, "", labelframes.Options{Limit: 2})
	require.NoError(t, err)
	assert.EqualValues(t, 1, src.seriesCalls.Load(), "totals come from one Series call")
	assert.Equal(t, sumWhere(t, p, func(map[string]string) bool { return true }), tree.Total())

	for _, v := range ranked[:2] {
		n := child(t, tree, flame.Root, v, flame.KindVirtual)
		assert.Equal(t, totals[v], tree.NodeTotal(n), v)
	}
	other := child(t, tree, flame.Root, flame.OtherName, flame.KindOther)
	assert.Equal(t, totals[ranked[2]]+totals[ranked[3]], tree.NodeTotal(other))
	for _, c := range tree.Children(other) {
		assert.Equal(t, flame.KindFunction, tree.Kind(c), "no virtual frames below other")
	}
	missing := child(t, tree, flame.Root, "(no category)", flame.KindVirtual)
	assert.Equal(t, sumWhere(t, p, hasLabel("category", "")), tree.NodeTotal(missing))
	assert.Len(t, tree.Children(flame.Root), 4, "two values, other, and the missing frame")

	// A limit that every value fits needs no totals.
	src.seriesCalls.Store(0)
	_, err = labelframes.Build(ctx, src, stacksRequest(checkout), []string{"category"}, "", labelframes.Options{Limit: 4})
	require.NoError(t, err)
	assert.Zero(t, src.seriesCalls.Load())
}

func TestBuildLimitPerParent(t *testing.T) {
	ctx := context.Background()
	p := realCPUProfile(t)
	src := newProfileSource(t, p)

	tree, err := labelframes.Build(ctx, src, stacksRequest(checkout), []string{"route", "category"}, "", labelframes.Options{Limit: 1})
	require.NoError(t, err)
	assert.EqualValues(t, 1, src.seriesCalls.Load())
	assert.Equal(t, sumWhere(t, p, func(map[string]string) bool { return true }), tree.Total())
	// Five routes: one kept, four in other, plus the samples without a route.
	assert.Len(t, tree.Children(flame.Root), 3)
	other := child(t, tree, flame.Root, flame.OtherName, flame.KindOther)
	missing := child(t, tree, flame.Root, "(no route)", flame.KindVirtual)
	// Under "(no route)" is one category value, within the limit, and the
	// samples without either label.
	assert.Equal(t, []string{"(no category)", "api"}, childNames(tree, missing))
	var kept flame.NodeID = -1
	for _, c := range tree.Children(flame.Root) {
		if c != other && c != missing {
			kept = c
		}
	}
	require.NotEqual(t, flame.NodeID(-1), kept)
	route := tree.Name(kept)
	assert.Equal(t, sumWhere(t, p, hasLabel("route", route)), tree.NodeTotal(kept))
	assert.Equal(t, sumWhere(t, p, func(ls map[string]string) bool { return ls["route"] != "" && ls["route"] != route }), tree.NodeTotal(other))
}

func TestByEqualsFramesFromLabel(t *testing.T) {
	ctx := context.Background()
	src := newProfileSource(t, realCPUProfile(t))

	build := func(text string) string {
		q, err := query.Parse(text)
		require.NoError(t, err)
		ls, sep := q.VirtualLabels()
		tree, err := labelframes.Build(ctx, src, stacksRequest(q.Selector), ls, sep, labelframes.Options{})
		require.NoError(t, err)
		return flametest.Dump(tree)
	}
	by := build(cpuType + checkout + ` by (category)`)
	ffl := build(`frames_from_label(` + cpuType + checkout + `, "category")`)
	assert.Equal(t, by, ffl)
	assert.Contains(t, by, "[category=storage]")
}

func TestBuildWithoutLabelsIsThePlainQuery(t *testing.T) {
	ctx := context.Background()
	src := newProfileSource(t, realCPUProfile(t))
	tree, err := labelframes.Build(ctx, src, stacksRequest(checkout), nil, "", labelframes.Options{})
	require.NoError(t, err)
	plain, err := src.MergeStacks(ctx, stacksRequest(checkout))
	require.NoError(t, err)
	assert.Equal(t, flametest.Dump(plain), flametest.Dump(tree))
}

func TestBuildKeepsTheSelection(t *testing.T) {
	ctx := context.Background()
	p := realCPUProfile(t)
	src := newProfileSource(t, p)
	tree, err := labelframes.Build(ctx, src, stacksRequest(`{service_name="checkout",category=~"api|storage"}`), []string{"category"}, "", labelframes.Options{})
	require.NoError(t, err)
	assert.Equal(t, []string{"api", "storage"}, childNames(tree, flame.Root), "no frame for samples outside the selection")
	assert.Equal(t, sumWhere(t, p, func(ls map[string]string) bool { return ls["category"] == "api" || ls["category"] == "storage" }), tree.Total())

	empty, err := labelframes.Build(ctx, src, stacksRequest(`{service_name="nobody"}`), []string{"category"}, "", labelframes.Options{})
	require.NoError(t, err)
	assert.Equal(t, 1, empty.Len())
}

func TestBuildBoundsConcurrency(t *testing.T) {
	ctx := context.Background()
	src := newProfileSource(t, realCPUProfile(t))
	src.delay = 2e6 // 2ms per call, so that calls overlap
	_, err := labelframes.Build(ctx, src, stacksRequest(checkout), []string{"category", "route"}, "", labelframes.Options{Concurrency: 2})
	require.NoError(t, err)
	assert.LessOrEqual(t, src.maxInFlight.Load(), int64(2))
	assert.GreaterOrEqual(t, src.mergeCalls.Load(), int64(10), "one call per combination and per missing value")
}

func TestBuildErrors(t *testing.T) {
	ctx := context.Background()
	src := newProfileSource(t, realCPUProfile(t))

	src.failOn = `category="storage"`
	_, err := labelframes.Build(ctx, src, stacksRequest(checkout), []string{"category"}, "", labelframes.Options{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `virtual frames: stacks of {category="storage",service_name="checkout"}: backend unavailable`)
	src.failOn = ""

	_, err = labelframes.Build(ctx, src, stacksRequest(checkout), []string{"category", "category"}, "", labelframes.Options{})
	assert.EqualError(t, err, `virtual frames: label "category" given twice`)
	_, err = labelframes.Build(ctx, src, stacksRequest(checkout), []string{""}, "", labelframes.Options{})
	assert.EqualError(t, err, `virtual frames: empty label name`)
	_, err = labelframes.Build(ctx, src, stacksRequest(`{service_name=}`), []string{"category"}, "", labelframes.Options{})
	assert.ErrorContains(t, err, `virtual frames: label selector "{service_name=}": 1:15: in label matchers`)
}
