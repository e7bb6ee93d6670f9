// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package storage

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"math"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
)

func TestSeriesKeysDoNotCollide(t *testing.T) {
	a := Labels{{Name: "a", Value: "x\xffb\xfey"}}
	b := Labels{{Name: "a", Value: "x"}, {Name: "b", Value: "y"}}
	require.NotEqual(t, a.Key(), b.Key())
	require.NotEqual(t, Labels{{Name: "ab", Value: ""}}.Key(), Labels{{Name: "a", Value: "b"}}.Key())
}

func TestScanStopsWhenCancelled(t *testing.T) {
	db, err := Open(Options{Dir: t.TempDir()})
	require.NoError(t, err)
	defer db.Close()
	for i := 0; i < 200; i++ {
		_, err := db.Append(writesOf(t, synthetic(3, 2, 0, "cpu"), int64(i+1)*1e9, "svc"))
		require.NoError(t, err)
	}
	ids := db.Select(nil, math.MinInt64, math.MaxInt64)
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	err = db.ScanContext(ctx, ids, math.MinInt64, math.MaxInt64, true, func(*Profile) error {
		if n++; n == 10 {
			cancel()
		}
		return nil
	})
	require.ErrorIs(t, err, context.Canceled)
	require.Less(t, n, 10+checkEvery+1, "the scan stops within %d profiles of the cancellation", checkEvery)
}

func TestRetentionDeletesOldProfilesOnly(t *testing.T) {
	db, err := Open(Options{Dir: t.TempDir()})
	require.NoError(t, err)
	defer db.Close()
	now := time.Unix(1_800_000_000, 0)
	for _, age := range []time.Duration{40 * 24 * time.Hour, 31 * 24 * time.Hour, time.Hour, 0} {
		_, err := db.Append(writesOf(t, synthetic(2, 1, 0, "cpu"), now.Add(-age).UnixNano(), "svc"))
		require.NoError(t, err)
	}
	count := func() int {
		n := 0
		require.NoError(t, db.Scan(db.Select(nil, math.MinInt64, math.MaxInt64), math.MinInt64, math.MaxInt64, true, func(*Profile) error { n++; return nil }))
		return n
	}
	require.Equal(t, 4, count())
	// A query scanning while retention runs is not blocked and sees a consistent snapshot.
	snap := db.Snapshot()
	require.NoError(t, db.ApplyRetention(30*24*time.Hour, 0, now))
	require.Equal(t, 2, count())
	n := 0
	require.NoError(t, snap.Scan(db.Select(nil, math.MinInt64, math.MaxInt64), math.MinInt64, math.MaxInt64, true, func(*Profile) error { n++; return nil }))
	require.NoError(t, snap.Close())
	oldest, _, ok := db.TimeBounds()
	require.True(t, ok)
	require.GreaterOrEqual(t, oldest, now.Add(-30*24*time.Hour).UnixNano())
}

func TestCommitPanicReleasesLocks(t *testing.T) {
	db, err := Open(Options{Dir: t.TempDir()})
	require.NoError(t, err)
	ws := writesOf(t, synthetic(2, 1, 0, "cpu"), 1e9, "svc")
	_, err = db.Append(ws)
	require.NoError(t, err)
	// Closing Pebble underneath makes its commit panic ("pebble: closed").
	require.NoError(t, db.pdb.Close())
	_, err = db.Append(writesOf(t, synthetic(2, 1, 0, "cpu"), 2e9, "other"))
	require.ErrorIs(t, err, ErrFailed)
	// The locks are free: reads and further writes return at once.
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		db.Select(nil, math.MinInt64, math.MaxInt64)
		_, err := db.Append(ws)
		require.True(t, errors.Is(err, ErrFailed), "%v", err)
	}()
	wg.Wait()
}

// TestInvalidUTF8OnDiskIsRepairedAtLoad: strings stored by a version that
// did not check UTF-8 load as valid strings.
func TestInvalidUTF8OnDiskIsRepairedAtLoad(t *testing.T) {
	dir := t.TempDir()
	db, err := Open(Options{Dir: dir})
	require.NoError(t, err)
	ws := writesOf(t, synthetic(2, 1, 0, "cpu"), 1e9, "svc\xff")
	_, err = db.Append(ws)
	require.NoError(t, err)
	require.NoError(t, db.Close())
	db, err = Open(Options{Dir: dir})
	require.NoError(t, err)
	defer db.Close()
	ids := db.Select(nil, math.MinInt64, math.MaxInt64)
	require.NotEmpty(t, ids)
	for _, id := range ids {
		for _, l := range db.SeriesLabels(id) {
			require.True(t, utf8.ValidString(l.Value), "%q", l.Value)
		}
	}
}

// TestBackgroundErrorsAreRateLimited: a background error retried in a loop
// logs one line per ten seconds, with the count of the repeats.
func TestBackgroundErrorsAreRateLimited(t *testing.T) {
	var buf bytes.Buffer
	l := newPebbleLogger(slog.New(slog.NewTextHandler(&buf, nil)))
	now := time.Unix(0, 0)
	l.now = func() time.Time { return now }
	for i := 0; i < 1000; i++ {
		l.Errorf("background error: %v", "no space left on device")
	}
	require.Equal(t, 1, strings.Count(buf.String(), "\n"))
	now = now.Add(11 * time.Second)
	l.Errorf("background error: %v", "no space left on device")
	require.Equal(t, 2, strings.Count(buf.String(), "\n"))
	require.Contains(t, buf.String(), "repeated=999")
}
