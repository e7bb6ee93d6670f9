// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package pyroscope

import (
	"fmt"
	"strings"
	"testing"

	querierv1 "github.com/grafana/pyroscope/api/gen/proto/go/querier/v1"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/pkg/profile/flame"
)

// dump renders a tree as "depth name total self" lines in Walk order.
func dump(t *flame.Tree) string {
	var b strings.Builder
	t.Walk(func(n flame.NodeID, depth int) {
		fmt.Fprintf(&b, "%s%s %d %d\n", strings.Repeat("  ", depth), t.Name(n), t.NodeTotal(n), t.Self(n))
	})
	return b.String()
}

func levels(rows ...[]int64) []*querierv1.Level {
	out := make([]*querierv1.Level, len(rows))
	for i, r := range rows {
		out[i] = &querierv1.Level{Values: r}
	}
	return out
}

func TestTreeFromFlameGraphHandMade(t *testing.T) {
	// total 10: main (9) -> a (6, self 4) -> c (2 self); main -> b (3 self); gc 1 self.
	// x ranges: level1 main [0,9) gc [9,10); level2 a [0,6) b [6,9); level3 c [4,6).
	fg := &querierv1.FlameGraph{
		Names: []string{"total", "main", "gc", "a", "b", "c"},
		Levels: levels(
			[]int64{0, 10, 0, 0},
			[]int64{0, 9, 0, 1, 0, 1, 1, 2},
			[]int64{0, 6, 4, 3, 0, 3, 3, 4},
			[]int64{4, 2, 2, 5},
		),
		Total: 10,
	}
	tr, err := TreeFromFlameGraph(fg)
	require.NoError(t, err)
	require.Equal(t, int64(10), tr.Total())
	require.Equal(t, `total 10 0
  gc 1 1
  main 9 0
    a 6 4
      c 2 2
    b 3 3
`, dump(tr))
}

func TestTreeFromFlameGraphSameNameDifferentParents(t *testing.T) {
	// f appears under both a and b: the x ranges, not the names, decide the parent.
	fg := &querierv1.FlameGraph{
		Names: []string{"total", "a", "b", "f", "other"},
		Levels: levels(
			[]int64{0, 7, 0, 0},
			[]int64{0, 4, 1, 1, 0, 2, 0, 2, 0, 1, 1, 4},
			[]int64{1, 3, 3, 3, 0, 2, 2, 3},
		),
	}
	tr, err := TreeFromFlameGraph(fg)
	require.NoError(t, err)
	require.Equal(t, `total 7 0
  a 4 1
    f 3 3
  b 2 0
    f 2 2
  other 1 1
`, dump(tr))
	var otherKind flame.Kind
	tr.Walk(func(n flame.NodeID, _ int) {
		if tr.Name(n) == "other" {
			otherKind = tr.Kind(n)
		}
	})
	require.Equal(t, flame.KindOther, otherKind)
}

func TestTreeFromFlameGraphEmpty(t *testing.T) {
	tr, err := TreeFromFlameGraph(nil)
	require.NoError(t, err)
	require.Equal(t, int64(0), tr.Total())
	tr, err = TreeFromFlameGraph(&querierv1.FlameGraph{Names: []string{"total"}, Levels: levels([]int64{0, 0, 0, 0})})
	require.NoError(t, err)
	require.Equal(t, 1, tr.Len())
}

func TestTreeFromFlameGraphRejectsMalformed(t *testing.T) {
	cases := map[string]struct {
		fg   *querierv1.FlameGraph
		want string
	}{
		"not tuples":       {&querierv1.FlameGraph{Names: []string{"total"}, Levels: levels([]int64{0, 1, 0})}, "level 0 has 3 values, not a multiple of 4"},
		"bad name":         {&querierv1.FlameGraph{Names: []string{"total"}, Levels: levels([]int64{0, 1, 0, 0}, []int64{0, 1, 1, 7})}, "level 1 node 0: name index 7 outside the 1 names"},
		"orphan":           {&querierv1.FlameGraph{Names: []string{"total", "a"}, Levels: levels([]int64{0, 1, 0, 0}, []int64{1, 1, 1, 1})}, "level 1 node 0: range [1,2) lies in no node of level 0"},
		"two roots":        {&querierv1.FlameGraph{Names: []string{"total"}, Levels: levels([]int64{0, 1, 1, 0, 0, 1, 1, 0})}, "level 0 has 2 nodes"},
		"self above total": {&querierv1.FlameGraph{Names: []string{"total"}, Levels: levels([]int64{0, 1, 2, 0})}, "bad values"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := TreeFromFlameGraph(c.fg)
			require.ErrorContains(t, err, c.want)
		})
	}
}

// encode writes a tree in Pyroscope's flamegraph format, children in Walk
// order, so that a round trip can be checked on large random trees.
func encode(t *flame.Tree) *querierv1.FlameGraph {
	fg := &querierv1.FlameGraph{Names: t.Names(), Total: t.Total()}
	ends := map[int]int64{} // per level, where the last node ended
	xs := map[flame.NodeID]int64{flame.Root: 0}
	next := map[flame.NodeID]int64{}
	t.Walk(func(n flame.NodeID, depth int) {
		x := xs[n]
		if depth > 0 {
			p := t.Parent(n)
			x = xs[p] + next[p]
			next[p] += t.NodeTotal(n)
			xs[n] = x
		}
		if depth >= len(fg.Levels) {
			fg.Levels = append(fg.Levels, &querierv1.Level{})
		}
		l := fg.Levels[depth]
		l.Values = append(l.Values, x-ends[depth], t.NodeTotal(n), t.Self(n), int64(t.NameID(n)))
		ends[depth] = x + t.NodeTotal(n)
	})
	return fg
}

func TestTreeFromFlameGraphRoundTrip(t *testing.T) {
	src := flame.New()
	names := []string{"main", "run", "parse", "lex", "gc", "alloc", "write"}
	seed := uint32(7)
	for i := 0; i < 500; i++ {
		seed = seed*1664525 + 1013904223
		depth := 1 + int(seed>>28)%6
		stack := make([]string, depth)
		for d := range stack {
			seed = seed*1664525 + 1013904223
			stack[d] = names[int(seed>>24)%len(names)]
		}
		src.InsertStackNames(int64(1+seed%97), stack...)
	}
	got, err := TreeFromFlameGraph(encode(src))
	require.NoError(t, err)
	require.Equal(t, dump(src), dump(got))
	require.Equal(t, src.Total(), got.Total())
}
