// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package flame_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/pkg/profile/flame"
	"github.com/emberscope/emberscope/pkg/profile/flame/flametest"
)

func TestTruncateFoldsIntoOther(t *testing.T) {
	got := flame.Truncate(small(), 4)
	assert.Equal(t, "total 10/0\n"+
		"  main 9/1\n"+
		"    (other) 8/8\n"+
		"  (other) 1/1\n", flametest.Dump(got))
	assert.Equal(t, 4, got.Len())
}

func TestTruncateReturnsTheTreeWhenItFits(t *testing.T) {
	tr := small()
	assert.Same(t, tr, flame.Truncate(tr, 6))
	assert.Same(t, tr, flame.Truncate(tr, 0))
	got := flame.Truncate(tr, 1) // treated as 2: root and one other
	assert.Equal(t, "total 10/0\n  (other) 10/10\n", flametest.Dump(got))
}

// TestTruncateTiesAreDeterministic: a, b and c have equal totals at equal
// depth; a wins by name, and the result does not depend on insertion order.
func TestTruncateTiesAreDeterministic(t *testing.T) {
	want := "total 6/0\n" +
		"  a 2/0\n" +
		"    (other) 2/2\n" +
		"  (other) 4/4\n"
	one := flametest.Stacks("a;x 2", "b;x 2", "c 2")
	two := flametest.Stacks("c 2", "b;x 2", "a;x 2")
	assert.Equal(t, want, flametest.Dump(flame.Truncate(one, 5)))
	assert.Equal(t, want, flametest.Dump(flame.Truncate(two, 5)))
}

// TestTruncateTiesPreferShallowNodes: x (under a) ties with b; b is
// shallower and wins although x comes first in walk order.
func TestTruncateTiesPreferShallowNodes(t *testing.T) {
	tr := flametest.Stacks("a;x 2", "a;y 1", "b 2", "c 1")
	got := flame.Truncate(tr, 5)
	assert.Equal(t, "total 6/0\n"+
		"  a 3/0\n"+
		"    (other) 3/3\n"+
		"  b 2/2\n"+
		"  (other) 1/1\n", flametest.Dump(got))
}

func TestTruncateMergesWithAnExistingOther(t *testing.T) {
	tr := flame.New()
	o := tr.Child(flame.Root, tr.Intern(flame.OtherName), flame.KindOther)
	tr.AddValue(o, 5)
	tr.InsertStackNames(9, "main")
	tr.InsertStackNames(1, "zz")
	tr.InsertStackNames(1, "zz", "deep")
	// root, main, other kept; zz folds into the same other.
	got := flame.Truncate(tr, 3)
	assert.Equal(t, "total 16/0\n  main 9/9\n  (other) 7/7\n", flametest.Dump(got))
}

// TestTruncatePreservesTotals checks, on large random trees and on a real CPU
// profile, that the result fits, keeps the root total, is self-consistent,
// and that every kept node has its original total and self.
func TestTruncatePreservesTotals(t *testing.T) {
	trees := map[string]*flame.Tree{
		"random": flametest.Random(50000, 7),
	}
	cpu, err := flametest.FromProfile(flametest.CPUProfile(t), 1)
	require.NoError(t, err)
	trees["cpu"] = cpu
	for name, tr := range trees {
		orig := pathIndex(tr)
		for _, max := range []int{2, 3, 10, 100, 1000, tr.Len() - 1} {
			got := flame.Truncate(tr, max)
			require.LessOrEqual(t, got.Len(), max, "%s/%d", name, max)
			require.Equal(t, tr.Total(), got.Total(), "%s/%d", name, max)
			checkConsistent(t, got)
			for path, n := range pathIndex(got) {
				if got.Kind(n) == flame.KindOther {
					continue
				}
				o, ok := orig[path]
				require.True(t, ok, "%s/%d: kept node %q not in the original", name, max, path)
				require.Equal(t, tr.NodeTotal(o), got.NodeTotal(n), "%s/%d: total of %q", name, max, path)
				require.Equal(t, tr.Self(o), got.Self(n), "%s/%d: self of %q", name, max, path)
			}
		}
	}
}

// pathIndex maps "a;b;c" (with kinds) to each node.
func pathIndex(tr *flame.Tree) map[string]flame.NodeID {
	out := make(map[string]flame.NodeID, tr.Len())
	var path []string
	tr.Walk(func(n flame.NodeID, depth int) {
		path = append(path[:depth], string('0'+rune(tr.Kind(n)))+tr.Name(n))
		out[strings.Join(path, ";")] = n
	})
	return out
}

// checkConsistent asserts total = self + sum of children's totals everywhere.
func checkConsistent(t *testing.T, tr *flame.Tree) {
	t.Helper()
	tr.Walk(func(n flame.NodeID, _ int) {
		sum := tr.Self(n)
		for _, k := range tr.Children(n) {
			sum += tr.NodeTotal(k)
		}
		require.Equal(t, tr.NodeTotal(n), sum, "node %q", tr.Name(n))
	})
}
