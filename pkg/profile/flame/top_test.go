// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package flame_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/internal/pproforacle"
	"github.com/emberscope/emberscope/pkg/profile/flame"
	"github.com/emberscope/emberscope/pkg/profile/flame/flametest"
)

func TestTopTableCountsRecursionOnce(t *testing.T) {
	tr := flametest.Stacks("a;b;a;b 4", "a 1", "b 2")
	assert.Equal(t, []flame.TopRow{
		{Name: "b", Self: 6, Total: 6},
		{Name: "a", Self: 1, Total: 5},
		{Name: "total", Self: 0, Total: 7},
	}, flame.TopTable(tr))
}

func TestTopTableTiesByName(t *testing.T) {
	tr := flametest.Stacks("m;z 2", "m;y 2", "x 2")
	assert.Equal(t, []flame.TopRow{
		{Name: "x", Self: 2, Total: 2},
		{Name: "y", Self: 2, Total: 2},
		{Name: "z", Self: 2, Total: 2},
		{Name: "m", Self: 0, Total: 4},
		{Name: "total", Self: 0, Total: 6},
	}, flame.TopTable(tr))
}

// TestTopTableMatchesGooglePprof compares every row of the top table of a
// recorded CPU profile (with main.recurse calling itself 12 deep, and generic
// functions) with google/pprof's flat and cum for that function (the oracle:
// go tool pprof -top, internal/pproforacle, with pprof's own names since
// flametest.FromProfile keeps them).
func TestTopTableMatchesGooglePprof(t *testing.T) {
	p := flametest.CPUProfile(t)
	tr, err := flametest.FromProfile(p, 1)
	require.NoError(t, err)
	want := pproforacle.Top(t, flametest.CPUProfilePath(t), pproforacle.Options{SampleType: "cpu", PprofNames: true})
	self, total := want.Flat(), want.Cum()
	rows := flame.TopTable(tr)
	require.Len(t, rows, len(total)+1, "one row per function, plus the root")
	recursive := false
	for _, r := range rows {
		if r.Name == flame.RootName {
			assert.Equal(t, tr.Total(), r.Total)
			continue
		}
		assert.Equal(t, self[r.Name], r.Self, "self of %s", r.Name)
		assert.Equal(t, total[r.Name], r.Total, "total of %s", r.Name)
		if r.Name == "main.recurse" {
			recursive = true
		}
	}
	assert.True(t, recursive, "the profile should hold the recursive function")
	assert.Equal(t, want.Total, tr.Total())
}

func TestTopTableSkipsVirtualFrames(t *testing.T) {
	tr := byService()
	v := tr.VirtualChild(flame.Root, "service", "idle") // samples with no stack
	tr.AddValue(v, 3)
	assert.Equal(t, []flame.TopRow{
		{Name: "work", Self: 4, Total: 4},
		{Name: "main", Self: 3, Total: 7},
		{Name: "total", Self: 3, Total: 10},
	}, flame.TopTable(tr))
}
