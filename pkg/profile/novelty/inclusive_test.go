// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package novelty

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/pkg/profile/flame/flametest"
)

func TestGroupsAreInclusiveSharesCountedOncePerStack(t *testing.T) {
	// parse recurses: its inclusive share is its stacks' value once, 60 %.
	v := mustVector(t, flametest.Stacks("main;serve;parse;parse;lex 40", "main;serve;parse 20", "main;serve;render 30", "main;gc 10"), Params{})
	share := func(name string) float64 {
		x, ok := v.groupShare(NameHash(name))
		require.True(t, ok, name)
		return x
	}
	require.InDelta(t, 0.6, share("parse"), 1e-6)
	require.InDelta(t, 0.9, share("serve"), 1e-6)
	require.InDelta(t, 0.4, share("lex"), 1e-6)
	require.InDelta(t, 1, share("main"), 1e-6, "a function on every stack is kept too")

	// Merged as the profiles would be.
	w := mustVector(t, flametest.Stacks("main;serve;render 100"), Params{})
	m, err := Merge([]Vector{v, w}, []int64{100, 100})
	require.NoError(t, err)
	x, ok := m.groupShare(NameHash("render"))
	require.True(t, ok)
	require.InDelta(t, (0.3+1)/2, x, 1e-6)
	x, _ = m.groupShare(NameHash("parse"))
	require.InDelta(t, 0.3, x, 1e-6)
}

func TestVersion1VectorsStillDecode(t *testing.T) {
	v := mustVector(t, flametest.Stacks("main;a 30", "main;b 70"), Params{})
	require.NotEmpty(t, v.Groups)
	require.Equal(t, 10.0, v.Samples, "100 ÷ their divisor 10")
	v1 := v
	v1.Groups = nil
	v1.Samples = 0
	var byRef []string
	ref := func(e Entry) uint64 { byRef = append(byRef, e.Key); return uint64(len(byRef) - 1) }
	b := v1.AppendBinary(nil, ref)
	// A version 1 record is the same without the groups' count and the
	// samples (both 0 here, one byte each).
	require.Equal(t, []byte{0, 0}, b[len(b)-2:])
	old := append([]byte{1}, b[1:len(b)-2]...)
	got, err := Decode(old, func(r uint64) (string, error) { return byRef[r], nil })
	require.NoError(t, err)
	require.Equal(t, v1, got)
	require.InDelta(t, 1, Cosine(&got, &v), 1e-6, "old and new vectors compare")
	// A series mixing both scores (the old ones lack the inclusive features).
	s, err := NewSeries(Options{})
	require.NoError(t, err)
	for range 6 {
		s.Score(got)
	}
	r, _ := s.Score(v)
	require.False(t, r.Novel, "the same profile in the new version is not novel: %.2f σ", r.Score)
}
