// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package flame_test

import (
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/emberscope/emberscope/pkg/profile/flame"
	"github.com/emberscope/emberscope/pkg/profile/flame/flametest"
)

// byService is [service=api] main;work 4, [service=api] main 1, [service=db] main 2.
func byService() *flame.Tree {
	tr := flame.New()
	tr.GraftUnder([]flame.VirtualFrame{{"service", "api"}}, flametest.Stacks("main;work 4", "main 1"))
	tr.GraftUnder([]flame.VirtualFrame{{"service", "db"}}, flametest.Stacks("main 2"))
	return tr
}

func TestReverse(t *testing.T) {
	got := flame.Reverse(small())
	assert.Equal(t, "total 10/0\n"+
		"  gc 1/1\n"+
		"  hash 3/0\n"+
		"    work 3/0\n"+
		"      main 3/3\n"+
		"  main 1/1\n"+
		"  parse 3/0\n"+
		"    main 3/3\n"+
		"  work 2/0\n"+
		"    main 2/2\n", flametest.Dump(got))
}

func TestReverseKeepsVirtualFramesOnTop(t *testing.T) {
	got := flame.Reverse(byService())
	assert.Equal(t, "total 7/0\n"+
		"  [service=api] 5/0\n"+
		"    main 1/1\n"+
		"    work 4/0\n"+
		"      main 4/4\n"+
		"  [service=db] 2/0\n"+
		"    main 2/2\n", flametest.Dump(got))
}

func TestReverseTwiceRestoresLeafValues(t *testing.T) {
	tr := flametest.Random(5000, 3)
	assert.Equal(t, flametest.Dump(tr), flametest.Dump(flame.Reverse(flame.Reverse(tr))))
}

func TestFocus(t *testing.T) {
	got := flame.Focus(small(), regexp.MustCompile(`^work$`))
	assert.Equal(t, "total 5/0\n"+
		"  work 5/2\n"+
		"    hash 3/3\n", flametest.Dump(got))
}

func TestFocusCountsNestedMatchesOnce(t *testing.T) {
	tr := flametest.Stacks("a;f;b;f;c 2", "f;d 1", "x 5")
	got := flame.Focus(tr, regexp.MustCompile(`^f$`))
	assert.Equal(t, "total 3/0\n"+
		"  f 3/0\n"+
		"    b 2/0\n"+
		"      f 2/0\n"+
		"        c 2/2\n"+
		"    d 1/1\n", flametest.Dump(got))
}

func TestFocusKeepsVirtualFramesAbove(t *testing.T) {
	got := flame.Focus(byService(), regexp.MustCompile(`work`))
	assert.Equal(t, "total 4/0\n"+
		"  [service=api] 4/0\n"+
		"    work 4/4\n", flametest.Dump(got))
}

func TestFocusWithoutMatchIsEmpty(t *testing.T) {
	got := flame.Focus(small(), regexp.MustCompile(`nothing`))
	assert.Equal(t, "total 0/0\n", flametest.Dump(got))
}

func TestDropFrames(t *testing.T) {
	got := flame.DropFrames(small(), regexp.MustCompile(`^work$`))
	assert.Equal(t, "total 10/0\n"+
		"  gc 1/1\n"+
		"  main 9/3\n"+
		"    hash 3/3\n"+
		"    parse 3/3\n", flametest.Dump(got))
}

func TestDropFramesMergesSiblings(t *testing.T) {
	tr := flametest.Stacks("a;b;c 1", "a;c 2", "b 4")
	got := flame.DropFrames(tr, regexp.MustCompile(`^b$`))
	assert.Equal(t, "total 7/4\n"+
		"  a 3/0\n"+
		"    c 3/3\n", flametest.Dump(got))
}

func TestDropFramesKeepsVirtualFrames(t *testing.T) {
	got := flame.DropFrames(byService(), regexp.MustCompile(`api|main`))
	assert.Equal(t, "total 7/0\n"+
		"  [service=api] 5/1\n"+
		"    work 4/4\n"+
		"  [service=db] 2/2\n", flametest.Dump(got))
}

func TestTruncateDepth(t *testing.T) {
	assert.Equal(t, "total 10/0\n"+
		"  gc 1/1\n"+
		"  main 9/9\n", flametest.Dump(flame.TruncateDepth(small(), 1)))
	assert.Equal(t, "total 10/10\n", flametest.Dump(flame.TruncateDepth(small(), 0)))
	assert.Equal(t, flametest.Dump(small()), flametest.Dump(flame.TruncateDepth(small(), 3)))
}
