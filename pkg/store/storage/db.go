// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package storage

import (
	"context"
	"encoding/binary"
	"fmt"
	"log/slog"
	"strings"
	"sync"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/vfs"
)

// Options configure a DB.
type Options struct {
	// Dir is the database directory, created when missing.
	Dir string
	// Logger receives Pebble's messages; nil discards them.
	Logger *slog.Logger
	// FS is the file system (tests inject faults); nil is the OS.
	FS vfs.FS
	// WaitOnDiskFull, when set, makes Open wait while the disk is full,
	// until it is done.
	WaitOnDiskFull context.Context
	// Vectors, when set, computes a record kept beside each profile at
	// ingest (novelty vectors; see vectors.go).
	Vectors VectorHook
}

// DB is the profile database. It is safe for concurrent use; appends are
// serialised.
type DB struct {
	pdb     *pebble.DB
	log     *slog.Logger
	faults  faults
	vectors VectorHook

	// Background work (compactions) is cancelled and waited for by Close.
	bgMu     sync.Mutex
	bgCtx    context.Context
	bgCancel context.CancelFunc
	bg       sync.WaitGroup

	mu sync.RWMutex // guards t
	t  *tables

	wmu sync.Mutex // serialises Append; guards seq
	seq uint64
}

// Open opens (or creates) the database in opts.Dir and loads its indexes.
func Open(opts Options) (*DB, error) {
	if opts.Dir == "" {
		return nil, fmt.Errorf("storage: no directory given")
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	pl := newPebbleLogger(opts.Logger)
	po := &pebble.Options{Logger: pl, EventListener: eventListener(pl), FS: opts.FS}
	pdb, err := openPebble(opts, po)
	if err != nil {
		return nil, openError(opts.Dir, "open", err)
	}
	db := &DB{pdb: pdb, log: opts.Logger, vectors: opts.Vectors, t: newTables()}
	db.bgCtx, db.bgCancel = context.WithCancel(context.Background())
	if err := db.load(); err != nil {
		_ = pdb.Close()
		return nil, openError(opts.Dir, "load", err)
	}
	return db, nil
}

// Close closes the database.
func (db *DB) Close() error {
	db.bgMu.Lock()
	db.bgCancel()
	db.bgMu.Unlock()
	db.bg.Wait()
	db.wmu.Lock()
	defer db.wmu.Unlock()
	return db.pdb.Close()
}

// DiskSpaceUsage returns the bytes the database uses on disk.
func (db *DB) DiskSpaceUsage() uint64 { return db.pdb.Metrics().DiskSpaceUsage() }

// Flush flushes memtables to disk (for measurements and tests).
func (db *DB) Flush() error { return db.pdb.Flush() }

// scanTable calls fn for every key of table in order.
func (db *DB) scanTable(table byte, fn func(k, v []byte) error) error {
	it, err := db.pdb.NewIter(&pebble.IterOptions{LowerBound: []byte{table}, UpperBound: []byte{table + 1}})
	if err != nil {
		return err
	}
	defer it.Close()
	for ok := it.First(); ok; ok = it.Next() {
		v, err := it.ValueAndErr()
		if err != nil {
			return err
		}
		if err := fn(it.Key(), v); err != nil {
			return err
		}
	}
	return it.Error()
}

func (db *DB) load() error {
	t := db.t
	expect := func(k []byte, want int) error {
		if len(k) != 5 || binary.BigEndian.Uint32(k[1:]) != uint32(want) {
			return fmt.Errorf("table %q: key %x out of sequence (want id %d)", k[0], k, want)
		}
		return nil
	}
	if err := db.scanTable(tableString, func(k, v []byte) error {
		if err := expect(k, len(t.strs)); err != nil {
			return err
		}
		// Strings stored before ingest checked UTF-8 are repaired in
		// memory, so that they cannot break every answer that holds them.
		t.addString(strings.ToValidUTF8(string(v), "\uFFFD"))
		return nil
	}); err != nil {
		return err
	}
	if err := db.scanTable(tableStack, func(k, v []byte) error {
		if err := expect(k, len(t.stackParent)); err != nil {
			return err
		}
		r := reader{b: v}
		parent, frame := r.uvarint(), r.uvarint()
		var m FrameMeta
		if len(r.b) > 0 {
			m.File, m.Line, m.MapFile, m.BuildID = uint32(r.uvarint()), r.varint(), uint32(r.uvarint()), uint32(r.uvarint())
			m.Inlined = r.uvarint()&1 != 0
			m.StartLine = r.varint()
		}
		n := uint32(len(t.strs))
		if r.err != nil || parent >= uint64(len(t.stackParent)) || frame >= uint64(n) || m.File > n || m.MapFile > n || m.BuildID > n {
			return fmt.Errorf("stack %x: %w", k, errCorrupt)
		}
		t.addStack(uint32(parent), uint32(frame), m)
		return nil
	}); err != nil {
		return err
	}
	if err := db.scanTable(tableSeries, func(k, v []byte) error {
		if err := expect(k, len(t.series)); err != nil {
			return err
		}
		r := reader{b: v}
		n := r.uvarint()
		ls := make(Labels, 0, min(n, 64))
		for i := uint64(0); i < n && r.err == nil; i++ {
			name, value := r.uvarint(), r.uvarint()
			if name >= uint64(len(t.strs)) || value >= uint64(len(t.strs)) {
				return fmt.Errorf("series %x: %w", k, errCorrupt)
			}
			ls = append(ls, Label{Name: t.strs[name], Value: t.strs[value]})
		}
		if r.err != nil {
			return fmt.Errorf("series %x: %w", k, r.err)
		}
		t.addSeries(ls)
		return nil
	}); err != nil {
		return err
	}
	if err := db.loadSeriesBounds(); err != nil {
		return err
	}
	v, closer, err := db.pdb.Get(metaProfileSeq)
	switch {
	case err == pebble.ErrNotFound:
	case err != nil:
		return err
	default:
		if len(v) == 8 {
			db.seq = binary.BigEndian.Uint64(v)
		}
		closer.Close()
	}
	return nil
}

// loadSeriesBounds finds the first and last profile time of every series.
func (db *DB) loadSeriesBounds() error {
	it, err := db.pdb.NewIter(&pebble.IterOptions{LowerBound: []byte{tableProfile}, UpperBound: []byte{tableProfile + 1}})
	if err != nil {
		return err
	}
	defer it.Close()
	for id := range db.t.series {
		lo := idKey(tableProfile, uint32(id))
		if it.SeekGE(lo) {
			if s, ts, ok := parseProfileKey(it.Key()); ok && s == uint32(id) {
				db.t.seenAt(s, ts)
			}
		}
		if it.SeekLT(prefixEnd(lo)) {
			if s, ts, ok := parseProfileKey(it.Key()); ok && s == uint32(id) {
				db.t.seenAt(s, ts)
			}
		}
	}
	return it.Error()
}

// batchWriter wraps a Pebble batch and counts what it holds.
type batchWriter struct {
	b     *pebble.Batch
	bytes int
	err   error
}

func (w *batchWriter) set(k, v []byte) {
	if w.err == nil {
		w.err = w.b.Set(k, v, nil)
		w.bytes += len(k) + len(v)
	}
}
