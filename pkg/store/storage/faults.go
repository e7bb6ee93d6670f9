// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package storage

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/cockroachdb/pebble/v2"
)

var (
	// ErrDiskFull marks a write refused because the disk is full; reads go on.
	ErrDiskFull = errors.New("storage: disk full")
	// ErrFailed marks a write refused because the database hit a fatal
	// error; it must be restarted to accept writes again.
	ErrFailed = errors.New("storage: database failed")
	// ErrCorrupt marks a data directory with unreadable data.
	ErrCorrupt = errors.New("storage: corrupt data")
)

// faults remembers a fatal error of the database.
type faults struct {
	fatal atomic.Pointer[error]
}

func (f *faults) failed() error {
	if p := f.fatal.Load(); p != nil {
		return fmt.Errorf("%w: %v (restart the store)", ErrFailed, *p)
	}
	return nil
}

func (f *faults) fail(err error) { f.fatal.CompareAndSwap(nil, &err) }

// classify marks errors of a full disk with ErrDiskFull.
func classify(err error) error {
	if err != nil && errors.Is(err, syscall.ENOSPC) && !errors.Is(err, ErrDiskFull) {
		return fmt.Errorf("%w: %w", ErrDiskFull, err)
	}
	return err
}

// applyBatch applies b under the caller's lock without waiting for the WAL
// sync. A panic inside Pebble (its fatal errors) becomes an error and marks
// the database failed, so that no lock stays held.
func (db *DB) applyBatch(b *pebble.Batch) (err error) {
	if err := db.faults.failed(); err != nil {
		return err
	}
	defer func() {
		if r := recover(); r != nil {
			e := fmt.Errorf("pebble panicked while committing: %v", r)
			db.faults.fail(e)
			db.log.Error("storage: fatal error while committing; writes are refused until restart", "err", e, "stack", string(debug.Stack()))
			err = fmt.Errorf("%w: %v", ErrFailed, e)
		}
	}()
	return classify(db.pdb.ApplyNoSyncWait(b, pebble.Sync))
}

// syncBatch waits for the WAL sync of an applied batch (outside any lock).
func (db *DB) syncBatch(b *pebble.Batch) (err error) {
	defer func() {
		if r := recover(); r != nil {
			e := fmt.Errorf("pebble panicked while syncing: %v", r)
			db.faults.fail(e)
			err = fmt.Errorf("%w: %v", ErrFailed, e)
		}
	}()
	return classify(b.SyncWait())
}

// openPebble opens Pebble, waiting quietly (one log line a minute) while the
// disk is full when opts.WaitOnDiskFull is set.
func openPebble(opts Options, po *pebble.Options) (*pebble.DB, error) {
	ctx := opts.WaitOnDiskFull
	var lastLog time.Time
	delay := 100 * time.Millisecond
	for {
		pdb, err := pebble.Open(opts.Dir, po)
		if err == nil || ctx == nil || !errors.Is(err, syscall.ENOSPC) {
			return pdb, classify(err)
		}
		if time.Since(lastLog) > time.Minute {
			lastLog = time.Now()
			if opts.Logger != nil {
				opts.Logger.Warn("storage: the disk is full; waiting for free space before opening", "dir", opts.Dir, "err", err.Error())
			}
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("%w: %w (gave up waiting: %w)", ErrDiskFull, err, ctx.Err())
		case <-time.After(delay):
		}
		delay = min(2*delay, 5*time.Second)
	}
}

// pebbleLogger sends Pebble's messages to slog, at most one line per
// message format every ten seconds (the number of repeats is kept), so that
// a background error retried in a loop does not flood the log. Fatalf
// panics, as Pebble requires it not to return; a panic inside a commit is
// recovered by applyBatch.
type pebbleLogger struct {
	l      *slog.Logger
	mu     sync.Mutex
	last   map[string]time.Time
	repeat map[string]int
	now    func() time.Time
}

func newPebbleLogger(l *slog.Logger) *pebbleLogger {
	return &pebbleLogger{l: l, last: make(map[string]time.Time), repeat: make(map[string]int), now: time.Now}
}

const logEvery = 10 * time.Second

// allow reports whether a line of this format may be logged now, and how
// many were suppressed since the last one.
func (p *pebbleLogger) allow(format string) (bool, int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	if t, ok := p.last[format]; ok && now.Sub(t) < logEvery {
		p.repeat[format]++
		return false, 0
	}
	p.last[format] = now
	n := p.repeat[format]
	delete(p.repeat, format)
	if len(p.last) > 1000 {
		clear(p.last)
	}
	return true, n
}

func (p *pebbleLogger) Infof(format string, args ...any) {
	if p.l != nil && p.l.Enabled(context.Background(), slog.LevelDebug) {
		p.l.Debug(fmt.Sprintf(format, args...), "component", "pebble")
	}
}

func (p *pebbleLogger) Errorf(format string, args ...any) {
	if p.l == nil {
		return
	}
	if ok, n := p.allow(format); ok {
		if n > 0 {
			p.l.Error(fmt.Sprintf(format, args...), "component", "pebble", "repeated", n)
		} else {
			p.l.Error(fmt.Sprintf(format, args...), "component", "pebble")
		}
	}
}

func (p *pebbleLogger) Fatalf(format string, args ...any) {
	msg := fmt.Sprintf("pebble: "+format, args...)
	if p.l != nil {
		p.l.Error(msg, "component", "pebble", "fatal", true)
	}
	panic(msg)
}

// openError explains a failure to open the data directory, telling what to
// do about corrupt data.
func openError(dir, stage string, err error) error {
	if pebble.IsCorruptionError(err) || errors.Is(err, errCorrupt) {
		return fmt.Errorf("%w: storage: %s %s: %w; the data directory holds unreadable data: "+
			"start with -salvage to move it aside and keep what is readable", ErrCorrupt, stage, dir, err)
	}
	return fmt.Errorf("storage: %s %s: %w", stage, dir, err)
}

// eventListener reports data corruption and background errors through the
// rate-limited logger instead of Pebble's default, which is fatal on
// corruption: a corrupt table then fails the reads that touch it, and Open
// says how to salvage the directory.
func eventListener(l *pebbleLogger) *pebble.EventListener {
	return &pebble.EventListener{
		DataCorruption: func(info pebble.DataCorruptionInfo) {
			l.Errorf("data corruption in %s: %v (start with -salvage to keep what is readable)", info.Path, info.Details)
		},
		BackgroundError: func(err error) { l.Errorf("background error: %v", err) },
	}
}
