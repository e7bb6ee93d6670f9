// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package vectors

import (
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

func TestSamplingKeepsTheFirstOfEachPatternPerWindow(t *testing.T) {
	h, err := New(Options{Sampling: Sampling{Enabled: true, Window: time.Minute}})
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
	require.False(t, strip(1, 0, 50, 50), "the first of a pattern is kept whole")
	require.True(t, strip(1, 10*time.Second, 52, 48), "the same pattern again in the window: totals only")
	require.False(t, strip(2, 11*time.Second, 52, 48), "series are sampled on their own")
	require.False(t, strip(1, 20*time.Second, 0, 0, 60, 40), "a novel profile is kept whole")
	require.True(t, strip(1, 30*time.Second, 0, 0, 61, 39), "and then is a pattern of its own")
	require.False(t, strip(1, 70*time.Second, 49, 51), "the first of the pattern in the next window is kept whole")
	require.True(t, strip(1, 80*time.Second, 50, 50))
	require.Equal(t, Stats{Profiles: 7, Sampled: 3, VectorBytes: h.Stats().VectorBytes}, h.Stats())

	off, err := New(Options{})
	require.NoError(t, err)
	for i := range 3 {
		_, s := off.Vector(profile(1, t0.Add(time.Duration(i)*time.Second), 50, 50))
		require.False(t, s, "sampling is off by default")
	}
	_, err = New(Options{Sampling: Sampling{Threshold: 1.5}})
	require.ErrorContains(t, err, "threshold")
	_, err = New(Options{Params: novelty.Params{K: -1}})
	require.ErrorContains(t, err, "K")
}
