package novelty

import (
	"hash/fnv"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/pkg/flame"
)

// tree builds a tree from stacks "a;b;c" with values.
func tree(stacks map[string]int64) *flame.Tree {
	t := flame.New()
	for s, v := range stacks {
		var names []string
		start := 0
		for i := 0; i <= len(s); i++ {
			if i == len(s) || s[i] == ';' {
				names = append(names, s[start:i])
				start = i + 1
			}
		}
		t.InsertStackNames(v, names...)
	}
	return t
}

func norm(v Vector) float64 { return math.Sqrt(v.Dot(&v)) }

func TestSummaryIsUnitLengthAndScaleFree(t *testing.T) {
	a := NewSummary(tree(map[string]int64{"main;serve;decode": 30, "main;serve;render": 70}))
	b := NewSummary(tree(map[string]int64{"main;serve;decode": 300, "main;serve;render": 700}))
	require.InDelta(t, 1, norm(a.Vector), 1e-6)
	require.Equal(t, a.Vector, b.Vector, "ten times the samples, same mix: same vector")
	require.Equal(t, int64(100), a.Total)
	require.InDelta(t, 0.3, a.Shares["decode"], 1e-12)
	require.InDelta(t, 0.7, a.Shares["render"], 1e-12)
	require.NotContains(t, a.Shares, "serve", "frames without self have no share")
}

func TestSummarySumsSelfAcrossNodesOfOneName(t *testing.T) {
	// decode is a leaf under two callers: its shares add up.
	s := NewSummary(tree(map[string]int64{"a;decode": 1, "b;decode": 1, "b;x": 2}))
	require.InDelta(t, 0.5, s.Shares["decode"], 1e-12)
	require.InDelta(t, 0.5, s.Shares["x"], 1e-12)
}

func TestSummaryOfEmptyTreeIsZero(t *testing.T) {
	s := NewSummary(flame.New())
	require.True(t, s.Vector.IsZero())
	require.Zero(t, s.Total)
	require.Empty(t, s.Shares)
}

func TestVectorIsDeterministic(t *testing.T) {
	stacks := map[string]int64{}
	for i := range 200 {
		stacks["main;f"+string(rune('a'+i%26))+";g"+string(rune('a'+i%7))] = int64(i + 1)
	}
	// Map iteration order differs between builds; the vector must not.
	first := NewSummary(tree(stacks)).Vector
	for range 20 {
		require.Equal(t, first, NewSummary(tree(stacks)).Vector)
	}
}

func TestDifferentFramesGiveDistantVectors(t *testing.T) {
	a := NewSummary(tree(map[string]int64{"main;serve;decode": 50, "main;serve;render": 50})).Vector
	b := NewSummary(tree(map[string]int64{"main;batch;compress": 50, "main;batch;checksum": 50})).Vector
	c := NewSummary(tree(map[string]int64{"main;serve;decode": 55, "main;serve;render": 45})).Vector
	require.Less(t, math.Abs(a.Dot(&b)), 0.5, "no frame in common")
	require.Greater(t, a.Dot(&c), 0.95, "same frames, slightly different mix")
}

func TestRisesNameTheFramesThatGrew(t *testing.T) {
	prev := NewSummary(tree(map[string]int64{"m;a": 50, "m;b": 30, "m;c": 20}))
	cur := NewSummary(tree(map[string]int64{"m;a": 20, "m;b": 35, "m;c": 20, "m;new": 25}))
	rises := cur.Rises(prev, 3)
	require.Len(t, rises, 2, "only b and new grew")
	require.Equal(t, "new", rises[0].Name)
	require.InDelta(t, 0.25, rises[0].Delta(), 1e-12)
	require.Zero(t, rises[0].From)
	require.Equal(t, "b", rises[1].Name)
	require.InDelta(t, 0.30, rises[1].From, 1e-12)
	require.InDelta(t, 0.35, rises[1].To, 1e-12)

	// Without a previous window, every frame is new; at most n are kept.
	first := prev.Rises(Summary{}, 2)
	require.Equal(t, []string{"a", "b"}, []string{first[0].Name, first[1].Name})
	require.Nil(t, cur.Rises(prev, 0))
}

func TestRisesTiesAreByName(t *testing.T) {
	cur := NewSummary(tree(map[string]int64{"z": 1, "y": 1, "x": 1, "w": 1}))
	rises := cur.Rises(Summary{}, 3)
	require.Equal(t, "w", rises[0].Name)
	require.Equal(t, "x", rises[1].Name)
	require.Equal(t, "y", rises[2].Name)
}

func TestBucketHashIsFNV1a(t *testing.T) {
	for _, name := range []string{"", "main", "github.com/acme/svc.(*T).Method", "naïve·frame"} {
		h := fnv.New64a()
		_, _ = h.Write([]byte(name))
		require.Equal(t, h.Sum64(), fnv64a(name), name)
		i, sign := bucket(name)
		require.Equal(t, int(h.Sum64()%Dims), i)
		require.Equal(t, h.Sum64()>>63 == 1, sign < 0)
	}
}
