// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package flame_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/pkg/profile/flame"
	"github.com/emberscope/emberscope/pkg/profile/flame/flametest"
)

func TestDiffWithItselfHasEqualSides(t *testing.T) {
	tr := flametest.Random(20000, 11)
	d := flame.NewDiff(tr, tr)
	require.Equal(t, tr.Len(), d.Tree().Len())
	rows := 0
	d.Walk(func(n flame.NodeID, _ int) {
		lt, ls := d.Left(n)
		rt, rs := d.Right(n)
		require.Equal(t, lt, rt)
		require.Equal(t, ls, rs)
		require.Equal(t, lt+rt, d.Tree().NodeTotal(n))
		rows++
	})
	assert.Equal(t, tr.Len(), rows)
}

func TestDiffOfTwoTrees(t *testing.T) {
	left := small()
	right := flametest.Stacks("main;work 4", "io 1")
	d := flame.NewDiff(left, right)
	type sides struct {
		name                         string
		lTotal, lSelf, rTotal, rSelf int64
	}
	var got []sides
	d.Walk(func(n flame.NodeID, _ int) {
		lt, ls := d.Left(n)
		rt, rs := d.Right(n)
		got = append(got, sides{d.Tree().Name(n), lt, ls, rt, rs})
	})
	assert.Equal(t, []sides{
		{"total", 10, 0, 5, 0},
		{"gc", 1, 1, 0, 0},
		{"io", 0, 0, 1, 1},
		{"main", 9, 1, 4, 0},
		{"parse", 3, 3, 0, 0},
		{"work", 5, 2, 4, 4},
		{"hash", 3, 3, 0, 0},
	}, got)
}

func TestDiffTruncateKeepsBothSidesTotals(t *testing.T) {
	left := flametest.Random(30000, 1)
	right := flametest.Random(30000, 2)
	d := flame.NewDiff(left, right).Truncate(500)
	require.LessOrEqual(t, d.Tree().Len(), 500)
	lt, _ := d.Left(flame.Root)
	rt, _ := d.Right(flame.Root)
	assert.Equal(t, left.Total(), lt)
	assert.Equal(t, right.Total(), rt)
	d.Walk(func(n flame.NodeID, _ int) {
		for _, side := range []func(flame.NodeID) (int64, int64){d.Left, d.Right} {
			total, self := side(n)
			sum := self
			for _, k := range d.Tree().Children(n) {
				kt, _ := side(k)
				sum += kt
			}
			require.Equal(t, total, sum)
		}
	})
}
