// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package storage

import (
	"fmt"
	"log/slog"
	"math"
	"time"

	"github.com/cockroachdb/pebble/v2"
)

// RecentSeries calls fn for every series with a profile at or after since,
// with the time of its newest profile.
func (db *DB) RecentSeries(since time.Time, fn func(Labels, time.Time)) {
	db.mu.RLock()
	defer db.mu.RUnlock()
	s := since.UnixNano()
	for id, ls := range db.t.series {
		if db.t.seriesMax[id] >= s {
			fn(ls, time.Unix(0, db.t.seriesMax[id]))
		}
	}
}

// DeleteBefore deletes every profile older than cutoff (unix ns) with one
// range deletion per series, then compacts the deleted range in the
// background. Queries are not blocked: they keep reading their snapshots,
// and the series bounds move under the read lock only for an instant.
// It returns the number of series that lost profiles.
func (db *DB) DeleteBefore(cutoff int64) (int, error) {
	db.wmu.Lock()
	defer db.wmu.Unlock()
	if err := db.faults.failed(); err != nil {
		return 0, err
	}
	db.mu.RLock()
	var ids []uint32
	for id := range db.t.series {
		if db.t.seriesMin[id] < cutoff && db.t.seriesMin[id] <= db.t.seriesMax[id] {
			ids = append(ids, uint32(id))
		}
	}
	db.mu.RUnlock()
	if len(ids) == 0 {
		return 0, nil
	}
	b := db.pdb.NewBatch()
	defer b.Close()
	for _, id := range ids {
		if err := b.DeleteRange(profileBound(id, math.MinInt64), profileBound(id, cutoff), nil); err != nil {
			return 0, err
		}
	}
	if err := classify(b.Commit(pebble.Sync)); err != nil {
		return 0, fmt.Errorf("storage: retention: %w", err)
	}
	db.mu.Lock()
	for _, id := range ids {
		if db.t.seriesMax[id] < cutoff {
			db.t.seriesMin[id], db.t.seriesMax[id] = math.MaxInt64, math.MinInt64
		} else {
			db.t.seriesMin[id] = cutoff // a lower bound of what is left
		}
	}
	db.mu.Unlock()
	return len(ids), nil
}

// compactProfiles compacts the profile table so that deleted profiles free
// their space. Pebble compacts beside reads and writes; Close cancels it.
func (db *DB) compactProfiles() error {
	db.bgMu.Lock()
	if db.bgCtx.Err() != nil {
		db.bgMu.Unlock()
		return db.bgCtx.Err()
	}
	db.bg.Add(1)
	db.bgMu.Unlock()
	defer db.bg.Done()
	start, end := profileBound(0, math.MinInt64), []byte{tableProfile + 1}
	return db.pdb.Compact(db.bgCtx, start, end, false)
}

// RetentionOptions configure StartRetention.
type RetentionOptions struct {
	// MaxAge deletes profiles older than this (0: off).
	MaxAge time.Duration
	// MaxBytes deletes the oldest profiles while the database is larger (0: off).
	MaxBytes int64
	// Every is the interval between runs; 0 means one minute.
	Every  time.Duration
	Logger *slog.Logger
	// Now is the clock (tests); nil is time.Now.
	Now func() time.Time
}

// Retention runs retention in the background until stopped.
type Retention struct {
	stop chan struct{}
	done chan struct{}
}

// StartRetention runs retention now and then every o.Every.
func StartRetention(db *DB, o RetentionOptions) *Retention {
	if o.Every <= 0 {
		o.Every = time.Minute
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	r := &Retention{stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(r.done)
		t := time.NewTicker(o.Every)
		defer t.Stop()
		for {
			if err := db.ApplyRetention(o.MaxAge, o.MaxBytes, o.Now()); err != nil {
				o.Logger.Warn("storage: retention failed", "err", err)
			}
			select {
			case <-r.stop:
				return
			case <-t.C:
			}
		}
	}()
	return r
}

// Stop stops the retention loop and waits for it.
func (r *Retention) Stop() {
	close(r.stop)
	<-r.done
}

// ApplyRetention deletes profiles older than maxAge, then the oldest while
// the database is larger than maxBytes (in steps of a tenth of the stored
// time span, never the newest profiles).
func (db *DB) ApplyRetention(maxAge time.Duration, maxBytes int64, now time.Time) error {
	if maxAge > 0 {
		n, err := db.DeleteBefore(now.Add(-maxAge).UnixNano())
		if err != nil {
			return err
		}
		if n > 0 {
			if err := db.compactProfiles(); err != nil {
				return err
			}
		}
	}
	if maxBytes <= 0 {
		return nil
	}
	for i := 0; i < 10 && int64(db.DiskSpaceUsage()) > maxBytes; i++ {
		oldest, newest, ok := db.TimeBounds()
		if !ok || oldest >= newest {
			return nil
		}
		step := max((newest-oldest)/10, int64(time.Second))
		if _, err := db.DeleteBefore(oldest + step); err != nil {
			return err
		}
		// Wait for the space to come back before measuring again.
		if err := db.compactProfiles(); err != nil {
			return err
		}
	}
	return nil
}
