// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package storage

import (
	"testing"

	"github.com/cockroachdb/pebble/v2"
	"github.com/prometheus/prometheus/model/labels"
	"github.com/stretchr/testify/require"
)

// TestDataDirectoryFromBeforeSpans opens a data directory written in the
// format stores used before span ids, profile ids and frame lines (a stack
// value of parent and frame only; a profile record ending after its legacy
// vector) and reads it: the profile keeps its samples, gets a stable id
// derived from its key, has no spans, and its frames have no file or line.
func TestDataDirectoryFromBeforeSpans(t *testing.T) {
	dir := t.TempDir()
	db, err := Open(Options{Dir: dir})
	require.NoError(t, err)
	set := func(k, v []byte) { require.NoError(t, db.pdb.Set(k, v, pebble.Sync)) }
	for i, s := range []string{"main.main", "service_name", "legacy", "__profile_type__", "process_cpu:cpu:nanoseconds:cpu:nanoseconds", "main.work"} {
		set(idKey(tableString, uint32(i)), []byte(s))
	}
	set(idKey(tableStack, 1), putUvarint(putUvarint(nil, 0), 0)) // main.main
	set(idKey(tableStack, 2), putUvarint(putUvarint(nil, 1), 5)) // main.main;main.work
	series := putUvarint(nil, 2)
	series = putUvarint(putUvarint(series, 3), 4)
	series = putUvarint(putUvarint(series, 1), 2)
	set(idKey(tableSeries, 0), series)
	old := putVarint(nil, 300)
	old = putUvarint(old, 2)
	old = putVarint(putUvarint(old, 1), 100)
	old = putVarint(putUvarint(old, 1), 200)
	old = putUvarint(old, 0) // empty legacy vector, then nothing
	key := profileKey(0, 5e9, 1)
	set(key, old)
	require.NoError(t, db.Close())

	db, err = Open(Options{Dir: dir})
	require.NoError(t, err)
	defer db.Close()
	ids := db.Select([]*labels.Matcher{labels.MustNewMatcher(labels.MatchEqual, "service_name", "legacy")}, 0, 1e10)
	require.Equal(t, []uint32{0}, ids)
	snap := db.Snapshot()
	defer snap.Close()
	var got []Profile
	require.NoError(t, snap.Scan(ids, 0, 1e10, false, func(p *Profile) error {
		c := *p
		c.Stacks, c.Values = append([]uint32(nil), p.Stacks...), append([]int64(nil), p.Values...)
		got = append(got, c)
		return nil
	}))
	require.Len(t, got, 1)
	p := got[0]
	require.Equal(t, int64(300), p.Total)
	require.Equal(t, []uint32{1, 2}, p.Stacks)
	require.Equal(t, []int64{100, 200}, p.Values)
	require.False(t, p.HasSpans())
	require.Equal(t, legacyProfileID(key), p.ID)
	require.NotEqual(t, ProfileID{}, p.ID)
	_, err = ParseProfileID(p.ID.String())
	require.NoError(t, err, "a legacy id is a UUID")
	v := snap.View()
	require.Equal(t, []string{"main.main", "main.work"}, v.Stack(2))
	file, line := v.FrameFile(2)
	require.Equal(t, "", file)
	require.Zero(t, line)
	require.False(t, v.FrameInlined(2))
}
