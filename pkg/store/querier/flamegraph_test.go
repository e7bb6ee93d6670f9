package querier

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/pkg/flame"
)

func TestFlameGraphLayout(t *testing.T) {
	tr := flame.New()
	tr.InsertStackNames(5, "main", "b")
	tr.InsertStackNames(3, "main", "a")
	tr.InsertStackNames(2, "main")
	tr.InsertStackNames(1, "z")
	fg := FlameGraph(tr, 100)
	require.Equal(t, []string{"total", "main", "a", "b", "z"}, fg.Names)
	require.Equal(t, int64(11), fg.Total)
	require.Equal(t, int64(5), fg.MaxSelf)
	// [x_delta, total, self, name]; children sorted by name, left aligned,
	// x relative to the end of the previous node of the level.
	require.Equal(t, []int64{0, 11, 0, 0}, fg.Levels[0].Values)
	require.Equal(t, []int64{0, 10, 2, 1, 0, 1, 1, 4}, fg.Levels[1].Values)
	require.Equal(t, []int64{0, 3, 3, 2, 0, 5, 5, 3}, fg.Levels[2].Values)
}

func TestFlameGraphFoldsIntoOther(t *testing.T) {
	tr := flame.New()
	tr.InsertStackNames(10, "main", "big")
	tr.InsertStackNames(2, "main", "small1")
	tr.InsertStackNames(1, "main", "small2")
	tr.InsertStackNames(1, "tiny")
	fg := FlameGraph(tr, 2) // keeps main and big
	require.Equal(t, []int64{0, 14, 0, 0}, fg.Levels[0].Values)
	require.Equal(t, []string{"total", "main", "big", "other"}, fg.Names)
	// main, then other (tiny) after it.
	require.Equal(t, []int64{0, 13, 0, 1, 0, 1, 1, 3}, fg.Levels[1].Values)
	// big, then other (small1 + small2) right after it.
	require.Equal(t, []int64{0, 10, 10, 2, 0, 3, 3, 3}, fg.Levels[2].Values)
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
	a, b := int64(2), int64(3)
	require.Equal(t, []string{"total", "main", "a", "b"}, fg.Names)
	require.Equal(t, []int64{0, 4, 4, 0, 1, 1, a, 0, 0, 0, 0, 6, 6, b}, fg.Levels[2].Values)
}

func TestKeptNodesTiesAreStable(t *testing.T) {
	tr := flame.New()
	for _, n := range []string{"d", "c", "b", "a"} {
		tr.InsertStackNames(1, n)
	}
	keep := keptNodes(tr.Len(), tr.NodeTotal, 2)
	require.Equal(t, []bool{true, true, true, false, false}, keep, "equal totals: first inserted kept")
}
