// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package flame_test

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/pkg/profile/flame"
	"github.com/emberscope/emberscope/pkg/profile/flame/flametest"
)

// small is
//
//	total 10 ─┬─ gc 1
//	          └─ main 9 (self 1) ─┬─ parse 3
//	                              └─ work 5 (self 2) ── hash 3
func small() *flame.Tree {
	return flametest.Stacks(
		"main;work;hash 3",
		"main;work 2",
		"main;parse 3",
		"main 1",
		"gc 1",
	)
}

func TestWalkOrderIsByNameWhateverTheInsertOrder(t *testing.T) {
	a := small()
	b := flametest.Stacks("gc 1", "main 1", "main;parse 3", "main;work 2", "main;work;hash 3")
	want := "total 10/0\n" +
		"  gc 1/1\n" +
		"  main 9/1\n" +
		"    parse 3/3\n" +
		"    work 5/2\n" +
		"      hash 3/3\n"
	assert.Equal(t, want, flametest.Dump(a))
	assert.Equal(t, want, flametest.Dump(b))
}

func TestChildrenSeesNodesAddedAfterAWalk(t *testing.T) {
	tr := small()
	kids := tr.Children(flame.Root)
	require.Len(t, kids, 2)
	tr.InsertStackNames(7, "alloc")
	kids = tr.Children(flame.Root)
	require.Len(t, kids, 3)
	assert.Equal(t, "alloc", tr.Name(kids[0]))
	assert.Equal(t, int64(17), tr.Total())
}

func TestChildrenOrdersSameNameByKind(t *testing.T) {
	tr := flame.New()
	fn := tr.InsertStackNames(1, "api")
	v := tr.VirtualChild(flame.Root, "service", "api")
	tr.AddValue(v, 2)
	kids := tr.Children(flame.Root)
	assert.Equal(t, []flame.NodeID{fn, v}, kids)
}

func TestConcurrentWalksOfAFinishedTree(t *testing.T) {
	tr := flametest.Random(20000, 1)
	want := flametest.Dump(tr)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() { assert.Equal(t, want, flametest.Dump(tr)) })
	}
	wg.Wait()
}

func TestGraftUnder(t *testing.T) {
	tr := flame.New()
	tr.GraftUnder([]flame.VirtualFrame{{"service", "api"}, {"region", "eu"}}, flametest.Stacks("main;serve 2"))
	tr.GraftUnder([]flame.VirtualFrame{{"service", "api"}, {"region", "us"}}, flametest.Stacks("main 1"))
	tr.GraftUnder(nil, flametest.Stacks("idle 4"))
	assert.Equal(t, "total 7/0\n"+
		"  [service=api] 3/0\n"+
		"    [region=eu] 2/0\n"+
		"      main 2/0\n"+
		"        serve 2/2\n"+
		"    [region=us] 1/0\n"+
		"      main 1/1\n"+
		"  idle 4/4\n", flametest.Dump(tr))
}

// TestGraftCopiesVirtualFrames merges a tree holding virtual frames into
// another: label and value must survive.
func TestGraftCopiesVirtualFrames(t *testing.T) {
	src := flame.New()
	src.GraftUnder([]flame.VirtualFrame{{"service", "api"}}, flametest.Stacks("main 2"))
	dst := flametest.Stacks("main 1")
	dst.Merge(src)
	assert.Equal(t, "total 3/0\n"+
		"  [service=api] 2/0\n"+
		"    main 2/2\n"+
		"  main 1/1\n", flametest.Dump(dst))
}

func TestGraftUnderANonRootNodeKeepsTotals(t *testing.T) {
	tr := flametest.Stacks("main;serve 2")
	serve := tr.Children(tr.Children(flame.Root)[0])[0]
	tr.Graft(serve, flametest.Stacks("json;encode 3", "json 1"))
	assert.Equal(t, "total 6/0\n"+
		"  main 6/0\n"+
		"    serve 6/2\n"+
		"      json 4/1\n"+
		"        encode 3/3\n", flametest.Dump(tr))
}

func TestMergeRandomTreesMatchesInsertingStacks(t *testing.T) {
	a, b := flametest.Random(3000, 1), flametest.Random(3000, 2)
	merged := flame.New()
	merged.Merge(a)
	merged.Merge(b)
	// Re-insert every node's self as a stack: the reference merge.
	ref := flame.New()
	for _, src := range []*flame.Tree{a, b} {
		var path []string
		src.Walk(func(n flame.NodeID, depth int) {
			if n == flame.Root {
				return
			}
			path = append(path[:depth-1], src.Name(n))
			if s := src.Self(n); s != 0 {
				ref.InsertStackNames(s, path...)
			}
		})
	}
	assert.Equal(t, flametest.Dump(ref), flametest.Dump(merged))
	assert.Equal(t, a.Total()+b.Total(), merged.Total())
}
