// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package storage

import (
	"encoding/binary"

	"github.com/cockroachdb/pebble/v2"
)

// This file is the storage side of per-profile novelty vectors: a hook
// called once per stored profile at ingest, whose record is kept beside the
// profile under the same key in table 'V', and the scan that reads them.

// tableVector holds one record per profile that has a vector:
// 'V' series id (u32) time (u64) seq (u64), the profile's own key suffix.
const tableVector byte = 'V'

// SampledFrame is the frame a stripped profile's total is filed under: a
// profile sampled out at ingest keeps its labels, total and vector, and its
// whole value sits on this one frame, so totals over a range stay exact.
const SampledFrame = "__sampled__"

// StackTables resolves the stacks of a profile being stored, committed or
// staged in the same batch.
type StackTables interface {
	// Parent is the parent stack of stack (0 is the empty stack).
	Parent(stack uint32) uint32
	// Frame is the string id of stack's leaf frame.
	Frame(stack uint32) uint32
	// String is string id's text.
	String(id uint32) string
}

// IngestProfile is one profile about to be stored.
type IngestProfile struct {
	Series uint32
	Labels Labels
	Time   int64
	// Stacks and Values are the samples, sorted by stack id, zero values dropped.
	Stacks []uint32
	Values []int64
	Tables StackTables
}

// VectorHook computes what to keep beside each profile at ingest. Calls are
// serialised (they run under the append lock).
type VectorHook interface {
	// Vector returns the record to keep beside the profile (nil for none)
	// and whether to keep only the profile's total instead of its stacks.
	Vector(p *IngestProfile) (record []byte, strip bool)
}

// Parent, Frame and String make a txn the StackTables of what it stages.
func (x *txn) Parent(stack uint32) uint32 {
	if n := uint32(len(x.base.stackParent)); stack >= n {
		return x.stacks[stack-n].parent
	}
	return x.base.stackParent[stack]
}

func (x *txn) Frame(stack uint32) uint32 {
	if n := uint32(len(x.base.stackFrame)); stack >= n {
		return x.stacks[stack-n].frame
	}
	return x.base.stackFrame[stack]
}

func (x *txn) String(id uint32) string {
	if n := uint32(len(x.base.strs)); id >= n {
		return x.strs[id-n]
	}
	return x.base.strs[id]
}

// vectorize calls the hook for one profile; it returns the samples to
// store (the hook may strip them to one sample of SampledFrame holding the
// total) and the vector record with its key.
func (db *DB) vectorize(x *txn, series uint32, w *Write, seq uint64, samples []stackValue) ([]stackValue, []byte, []byte) {
	if db.vectors == nil || len(samples) == 0 {
		return samples, nil, nil
	}
	stacks := perStack(samples)
	p := &IngestProfile{Series: series, Labels: w.Labels, Time: w.Time, Tables: x,
		Stacks: make([]uint32, len(stacks)), Values: make([]int64, len(stacks))}
	var total int64
	for i, s := range stacks {
		p.Stacks[i], p.Values[i] = s.stack, s.value
		total += s.value
	}
	rec, strip := db.vectors.Vector(p)
	if strip {
		samples = []stackValue{{stack: x.stack(0, x.str(SampledFrame)), value: total}}
	}
	if rec == nil {
		return samples, nil, nil
	}
	k := profileKey(series, w.Time, seq)
	k[0] = tableVector
	return samples, k, rec
}

// ScanVectors calls fn with the vector record of every profile of the given
// series within [start, end] (unix nanoseconds), series by series in time
// order. rec is only valid during the call.
func (s *Snapshot) ScanVectors(series []uint32, start, end int64, fn func(series uint32, time int64, rec []byte) error) error {
	if len(series) == 0 || start > end {
		return nil
	}
	it, err := s.snap.NewIter(&pebble.IterOptions{LowerBound: []byte{tableVector}, UpperBound: []byte{tableVector + 1}})
	if err != nil {
		return err
	}
	defer it.Close()
	bound := func(id uint32, t int64) []byte {
		k := profileBound(id, t)
		k[0] = tableVector
		return k
	}
	for _, id := range series {
		for ok := it.SeekGE(bound(id, start)); ok; ok = it.Next() {
			k := it.Key()
			if len(k) != 21 || binary.BigEndian.Uint32(k[1:]) != id {
				break
			}
			t := unsortableTime(binary.BigEndian.Uint64(k[5:]))
			if t > end {
				break
			}
			v, err := it.ValueAndErr()
			if err != nil {
				return err
			}
			if err := fn(id, t, v); err != nil {
				return err
			}
		}
	}
	return it.Error()
}

// Strings returns the number of strings in the view.
func (v *View) Strings() int { return len(v.strs) }
