// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package novelty

import (
	"fmt"
	"hash/fnv"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/pkg/profile/flame"
	"github.com/emberscope/emberscope/pkg/profile/flame/flametest"
)

func mustVector(t testing.TB, tr *flame.Tree, p Params) Vector {
	t.Helper()
	v, err := FromTree(tr, p)
	require.NoError(t, err)
	return v
}

func norm(v *Vector) float64 {
	var s float64
	for _, e := range v.Exact {
		s += float64(e.Weight) * float64(e.Weight)
	}
	for _, x := range v.Buckets {
		s += float64(x) * float64(x)
	}
	return math.Sqrt(s)
}

// exactCosine is the cosine of two share maps over every feature.
func exactCosine(a, b map[string]float64) float64 {
	var dot, na, nb float64
	for k, x := range a {
		dot += x * b[k]
		na += x * x
	}
	for _, y := range b {
		nb += y * y
	}
	return dot / math.Sqrt(na*nb)
}

func TestVectorKeepsTopKExactlyAndHashesTheRest(t *testing.T) {
	var lines []string
	for i := range 50 {
		lines = append(lines, fmt.Sprintf("main;f%02d %d", i, 100-i))
	}
	tr := flametest.Stacks(lines...)
	v := mustVector(t, tr, Params{K: 8, D: 16})
	require.Len(t, v.Exact, 8)
	require.Len(t, v.Buckets, 16)
	require.InDelta(t, 1, norm(&v), 1e-6)
	total := float64(tr.Total())
	for i := range 8 {
		key := fmt.Sprintf("f%02d", i)
		require.InDelta(t, float64(100-i)/total, v.Share(key), 1e-6, key)
	}
	// Ten times the samples, same mix: same vector.
	for i := range lines {
		lines[i] += "0"
	}
	require.Equal(t, v, mustVector(t, flametest.Stacks(lines...), Params{K: 8, D: 16}))
}

func TestCosineIsExactWhenEveryFeatureIsKept(t *testing.T) {
	a := flametest.Stacks("main;serve;decode 30", "main;serve;render 50", "main;gc 20")
	b := flametest.Stacks("main;serve;decode 60", "main;serve;render 20", "main;log 20")
	va, vb := mustVector(t, a, Params{}), mustVector(t, b, Params{})
	want := exactCosine(map[string]float64{"decode": .3, "render": .5, "gc": .2}, map[string]float64{"decode": .6, "render": .2, "log": .2})
	require.InDelta(t, want, Cosine(&va, &vb), 1e-6)
	require.InDelta(t, 1, Cosine(&va, &va), 1e-6)
	require.InDelta(t, 1-want, Distance(&va, &vb), 1e-6)
}

func TestCosineOfAKeptFeatureAgainstTheOthersBucket(t *testing.T) {
	// x is kept by a (its largest) but hashed by b (its smallest): the
	// estimate reads b's bucket, so the similarity stays close to exact.
	a := flametest.Stacks("m;x 50", "m;y 30", "m;z 20")
	b := flametest.Stacks("m;x 10", "m;y 50", "m;z 40")
	p := Params{K: 2, D: 64}
	va, vb := mustVector(t, a, p), mustVector(t, b, p)
	want := exactCosine(map[string]float64{"x": .5, "y": .3, "z": .2}, map[string]float64{"x": .1, "y": .5, "z": .4})
	require.InDelta(t, want, Cosine(&va, &vb), 0.01)
}

func TestVectorByStackKeepsStacksApart(t *testing.T) {
	a := flametest.Stacks("main;serve;decode 50", "main;batch;decode 50")
	b := flametest.Stacks("main;serve;decode 100")
	byFunc := Params{}
	byStack := Params{By: ByStack}
	fa, fb := mustVector(t, a, byFunc), mustVector(t, b, byFunc)
	require.InDelta(t, 1, Cosine(&fa, &fb), 1e-6, "one function, decode, in both")
	sa, sb := mustVector(t, a, byStack), mustVector(t, b, byStack)
	require.InDelta(t, 1/math.Sqrt2, Cosine(&sa, &sb), 1e-6, "two stacks against one")
	require.InDelta(t, 0.5, sa.Share("main;serve;decode"), 1e-6)
	require.InDelta(t, 0.5, sa.Share("main;batch;decode"), 1e-6)
	require.Zero(t, Cosine(&fa, &sa), "vectors of different parameters are not compared")
}

func TestStackHashChainsFrameNames(t *testing.T) {
	v := mustVector(t, flametest.Stacks("x;y 5", "a;b;c 1"), Params{By: ByStack})
	h := fnv.New64a()
	_, _ = h.Write([]byte("c"))
	want := StackHash(StackHash(StackHash(StackRoot, NameHash("a")), NameHash("b")), h.Sum64())
	i, ok := v.find(want)
	require.True(t, ok)
	require.Equal(t, "a;b;c", v.Exact[i].Key)
	require.NotEqual(t, StackHash(StackHash(StackRoot, NameHash("a")), NameHash("b")), StackHash(StackHash(StackRoot, NameHash("b")), NameHash("a")), "order matters")
}

func TestEmptyTreeGivesZeroVector(t *testing.T) {
	v := mustVector(t, flame.New(), Params{})
	require.True(t, v.IsZero())
	require.Zero(t, Cosine(&v, &v))
}

func TestMergeMatchesTheVectorOfTheMergedProfiles(t *testing.T) {
	a := flametest.Stacks("m;x 50", "m;y 30", "m;z 20")
	b := flametest.Stacks("m;x 100", "m;w 300")
	merged := flame.New()
	merged.Merge(a)
	merged.Merge(b)
	p := Params{}
	got, err := Merge([]Vector{mustVector(t, a, p), mustVector(t, b, p)}, []int64{a.Total(), b.Total()})
	require.NoError(t, err)
	want := mustVector(t, merged, p)
	require.InDelta(t, 1, Cosine(&got, &want), 1e-6)
	require.InDelta(t, want.Share("w"), got.Share("w"), 1e-6)

	// Beyond K, the smallest features fold into buckets.
	p = Params{K: 2, D: 64}
	got, err = Merge([]Vector{mustVector(t, a, p), mustVector(t, b, p)}, []int64{a.Total(), b.Total()})
	require.NoError(t, err)
	require.Len(t, got.Exact, 2)
	want = mustVector(t, merged, p)
	require.InDelta(t, 1, Cosine(&got, &want), 0.01)

	_, err = Merge([]Vector{mustVector(t, a, Params{}), mustVector(t, a, Params{K: 4})}, []int64{1, 1})
	require.ErrorContains(t, err, "parameters")
}

func TestEncodingRoundTrips(t *testing.T) {
	var lines []string
	for i := range 300 {
		lines = append(lines, fmt.Sprintf("main;pkg.f%03d %d", i, 1+i%17))
	}
	v := mustVector(t, flametest.Stacks(lines...), Params{})
	names := map[string]uint64{}
	var byRef []string
	b := v.AppendBinary(nil, func(e Entry) uint64 {
		names[e.Key] = uint64(len(byRef))
		byRef = append(byRef, e.Key)
		return names[e.Key]
	})
	require.LessOrEqual(t, len(b), 2048, "a vector is at most 2 KB")
	got, err := Decode(b, func(r uint64) (string, error) { return byRef[r], nil })
	require.NoError(t, err)
	require.Equal(t, v, got)

	_, err = Decode(b[:len(b)-1], func(r uint64) (string, error) { return byRef[r], nil })
	require.ErrorIs(t, err, ErrCorrupt)
	bad := append([]byte{9}, b[1:]...)
	_, err = Decode(bad, nil)
	require.ErrorContains(t, err, "version 9")
}

func TestParamsErrors(t *testing.T) {
	for _, p := range []Params{{K: -1}, {D: -3}, {D: 1 << 20}, {By: 7}} {
		_, err := p.WithDefaults()
		require.Error(t, err, "%+v", p)
		require.Contains(t, err.Error(), "novelty:")
	}
	p, err := Params{}.WithDefaults()
	require.NoError(t, err)
	require.Equal(t, Params{K: 32, D: 256, By: ByFunction}, p)
	by, err := ParseBy("stack")
	require.NoError(t, err)
	require.Equal(t, ByStack, by)
	_, err = ParseBy("frames")
	require.ErrorContains(t, err, `"frames"`)
}
