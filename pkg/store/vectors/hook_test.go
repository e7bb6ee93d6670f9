// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package vectors

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/pkg/profile/novelty"
	"github.com/emberscope/emberscope/pkg/store/storage"
)

// tables is a flat stack table: stack i is one frame, string i.
type tables []string

func (t tables) Parent(uint32) uint32    { return 0 }
func (t tables) Frame(s uint32) uint32   { return s }
func (t tables) String(id uint32) string { return t[id] }

func profile(series uint32, at time.Time, values ...int64) *storage.IngestProfile {
	p := &storage.IngestProfile{Series: series, Time: at.UnixNano(), Tables: tables{"", "decode", "render", "compress", "checksum"}}
	for i, v := range values {
		if v != 0 {
			p.Stacks = append(p.Stacks, uint32(i+1))
			p.Values = append(p.Values, v)
		}
	}
	return p
}

func TestSamplingKeepsNovelProfilesAndTheFirstOfEachWindow(t *testing.T) {
	// Two functions: the level of a profile cannot go below −log₁₀ 2 (the
	// Bonferroni bound of two features), so the bar is set above it here;
	// at the default bar (−0.6) such a profile is always kept whole, as
	// the end of the test checks.
	h, err := New(Options{Sampling: Sampling{Enabled: true, Window: time.Minute, Level: 1}})
	require.NoError(t, err)
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	strip := func(series uint32, at time.Duration, values ...int64) bool {
		rec, s := h.Vector(profile(series, t0.Add(at), values...))
		require.NotNil(t, rec, "every profile keeps its vector")
		d, err := decodeRecord(rec, func(r uint64) (string, error) { return tables{"", "decode", "render", "compress", "checksum"}[r], nil })
		require.NoError(t, err)
		require.Equal(t, s, d.Sampled, "the record says whether it was sampled")
		return s
	}
	// Profiles of 1,000 samples (values without a common divisor), the
	// usual 50/50 within a point and a half of sampling noise.
	usual := [][2]int64{{503, 497}, {489, 511}, {512, 488}, {497, 503}, {507, 493}, {494, 506}, {501, 499}}
	for i, u := range usual[:5] {
		require.False(t, strip(1, time.Duration(i)*time.Second, u[0], u[1]), "profile %d: a series warming up is kept whole", i)
	}
	require.True(t, strip(1, 10*time.Second, usual[5][0], usual[5][1]), "the usual mix again in the window: totals only")
	require.False(t, strip(2, 11*time.Second, 503, 497), "series are sampled on their own")
	require.False(t, strip(1, 20*time.Second, 401, 399, 200), "a novel profile (a new function at 20 %) is kept whole")
	require.False(t, strip(1, 70*time.Second, usual[6][0], usual[6][1]), "the first profile of the next window is kept whole")
	require.True(t, strip(1, 80*time.Second, 498, 502))
	require.Equal(t, Stats{Profiles: 10, Sampled: 2, VectorBytes: h.Stats().VectorBytes}, h.Stats())

	off, err := New(Options{})
	require.NoError(t, err)
	for i := range 7 {
		_, s := off.Vector(profile(1, t0.Add(time.Duration(i)*time.Second), 503, 497))
		require.False(t, s, "sampling is off by default")
	}
	_, err = New(Options{Sampling: Sampling{Level: math.NaN()}})
	require.ErrorContains(t, err, "sampling level must be a finite surprise level")
	def, err := New(Options{Sampling: Sampling{Enabled: true}})
	require.NoError(t, err)
	require.Equal(t, novelty.DefaultSamplingLevel, def.Options().Sampling.Level, "zero takes the default level")
	for i, u := range usual {
		_, s := def.Vector(profile(1, t0.Add(time.Duration(i)*time.Second), u[0], u[1]))
		require.False(t, s, "profile %d: at the default level a profile of two functions is kept whole", i)
	}
	_, err = New(Options{Params: novelty.Params{K: -1}})
	require.ErrorContains(t, err, "K")
}
