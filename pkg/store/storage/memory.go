// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package storage

import "sync"

// TableBytes estimates the bytes the in-memory tables hold, per table.
type TableBytes struct {
	Strings, Stacks, Series, Postings int64
}

// Total is the sum over the tables.
func (b TableBytes) Total() int64 { return b.Strings + b.Stacks + b.Series + b.Postings }

// Rough per-entry costs on a 64-bit Go runtime: headers, the map entry
// and its share of the bucket array. Estimates, not measurements: what
// matters is that the gauge grows as the tables do.
const (
	stringHeaderBytes = 16
	mapEntryBytes     = 40
	stackNodeBytes    = 4 + 4 + 20 + 28 + 4 + mapEntryBytes // parent, frame, meta, key, id, map entry
	seriesFixedBytes  = 24 + 8 + 8 + mapEntryBytes          // labels slice, min, max, seriesIDs entry
	labelBytes        = 2 * stringHeaderBytes
	postingBytes      = 4
)

// MemoryEstimator estimates the in-memory tables' size cheaply: the tables
// are append-only, so each call only measures what was added since the last.
type MemoryEstimator struct {
	db *DB

	mu          sync.Mutex
	strs        int
	strBytes    int64
	series      int
	seriesBytes int64
	postings    int64
}

// NewMemoryEstimator returns an estimator for db.
func NewMemoryEstimator(db *DB) *MemoryEstimator { return &MemoryEstimator{db: db} }

// Estimate returns the current estimate.
func (e *MemoryEstimator) Estimate() TableBytes {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.db.mu.RLock()
	t := e.db.t
	for _, s := range t.strs[e.strs:] {
		e.strBytes += int64(len(s)) + stringHeaderBytes + mapEntryBytes
	}
	e.strs = len(t.strs)
	for _, ls := range t.series[e.series:] {
		b := int64(seriesFixedBytes)
		for _, l := range ls {
			// Each label costs its strings twice: in the series and in
			// the series key.
			b += labelBytes + 2*int64(len(l.Name)+len(l.Value))
		}
		e.seriesBytes += b
		e.postings += int64(len(ls)) * postingBytes
	}
	e.series = len(t.series)
	stacks := int64(len(t.stackParent)) * stackNodeBytes
	values := 0
	for _, vals := range t.postings {
		values += len(vals)
	}
	e.db.mu.RUnlock()
	return TableBytes{
		Strings:  e.strBytes,
		Stacks:   stacks,
		Series:   e.seriesBytes,
		Postings: e.postings + int64(values)*(mapEntryBytes+stringHeaderBytes+24),
	}
}

// MemtableBytes is the memory Pebble's memtables hold (allocated for
// writes not yet flushed to sstables).
func (db *DB) MemtableBytes() uint64 { return db.pdb.Metrics().MemTable.Size }

// FlushStats are Pebble's count of memtable flushes so far and of the
// sstables in level 0, where flushes land.
func (db *DB) FlushStats() (flushes, l0Tables int64) {
	m := db.pdb.Metrics()
	return m.Flush.Count, m.Levels[0].TablesCount
}
