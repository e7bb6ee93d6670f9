// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package storage

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/google/uuid"

	"github.com/emberscope/emberscope/pkg/profile/pprofconv"
)

// Write is one profile to store: one series of a converted pprof.
type Write struct {
	// Labels are the full series labels (profile type labels included).
	Labels Labels
	// Time is the profile's time in unix nanoseconds.
	Time int64
	// Result holds the frame names and stacks Series refers to.
	Result *pprofconv.Result
	// Series is one of Result.Series.
	Series *pprofconv.Series
	// ProfileID is the server's id of the ingested profile the write is
	// part of (the writes of one pprof share it); zero gets a new random id.
	ProfileID ProfileID
}

// AppendStats tells what an Append stored.
type AppendStats struct {
	// Profiles is the number of profiles stored.
	Profiles int
	// Bytes is the size of the keys and values written.
	Bytes int
}

// Append stores ws in one durable batch: either all of them are stored and
// synced to the write-ahead log, or none.
func (db *DB) Append(ws []Write) (AppendStats, error) {
	db.wmu.Lock()
	defer db.wmu.Unlock()
	bw := &batchWriter{b: db.pdb.NewBatch()}
	defer bw.b.Close()
	x := newTxn(db.t, bw)
	type seen struct {
		series uint32
		time   int64
	}
	var bounds []seen
	var stats AppendStats
	// Stack ids of each converted result, resolved once.
	resolved := make(map[*pprofconv.Result][]uint32)
	seq := db.seq
	for i := range ws {
		w := &ws[i]
		stackIDs, ok := resolved[w.Result]
		if !ok {
			stackIDs = resolveStacks(x, w.Result)
			resolved[w.Result] = stackIDs
		}
		samples := make([]stackValue, 0, len(w.Series.Samples))
		for _, s := range w.Series.Samples {
			samples = append(samples, stackValue{stack: stackIDs[s.Stack], value: s.Value, span: s.SpanID, trace: s.TraceID})
		}
		slices.SortFunc(samples, compareSamples)
		samples = mergeSame(samples)
		series := x.seriesID(w.Labels)
		seq++
		samples, vk, vrec := db.vectorize(x, series, w, seq, samples)
		id := w.ProfileID
		if id == (ProfileID{}) {
			id = NewProfileID()
		}
		bw.set(profileKey(series, w.Time, seq), encodeProfile(samples, nil, id))
		if vk != nil {
			bw.set(vk, vrec)
		}
		bounds = append(bounds, seen{series, w.Time})
		stats.Profiles++
	}
	if seq != db.seq {
		bw.set(metaProfileSeq, binary.BigEndian.AppendUint64(nil, seq))
	}
	if bw.err != nil {
		return AppendStats{}, fmt.Errorf("storage: build batch: %w", bw.err)
	}
	if bw.b.Empty() {
		return stats, nil
	}
	// Commit and publish under the write lock: a reader's snapshot (see
	// Snapshot) then never holds a profile whose stacks its tables lack.
	// The fsync is waited for outside the lock, so reads do not wait for it.
	db.mu.Lock()
	if err := db.applyBatch(bw.b); err != nil {
		db.mu.Unlock()
		return AppendStats{}, fmt.Errorf("storage: commit: %w", err)
	}
	x.publish()
	for _, b := range bounds {
		db.t.seenAt(b.series, b.time)
	}
	db.mu.Unlock()
	syncErr := db.syncBatch(bw.b)
	db.seq = seq
	stats.Bytes = bw.bytes
	if syncErr != nil {
		return AppendStats{}, fmt.Errorf("storage: sync: %w", syncErr)
	}
	return stats, nil
}

// resolveStacks interns every stack of r and returns their stack ids.
func resolveStacks(x *txn, r *pprofconv.Result) []uint32 {
	names := make([]uint32, len(r.Names))
	for i, n := range r.Names {
		names[i] = x.str(n)
	}
	ref := func(i int32) uint32 {
		if i < 0 {
			return 0
		}
		return names[i] + 1
	}
	type frame struct {
		name uint32
		meta FrameMeta
	}
	frames := make([]frame, len(r.Frames))
	for i, f := range r.Frames {
		frames[i] = frame{names[f.Name], FrameMeta{File: ref(f.File), Line: f.Line, MapFile: ref(f.MapFile), BuildID: ref(f.BuildID), Inlined: f.Inlined, StartLine: f.StartLine}}
	}
	ids := make([]uint32, len(r.Stacks))
	for i, st := range r.Stacks {
		node := uint32(0)
		for _, f := range st {
			node = x.stackAt(node, frames[f].name, frames[f].meta)
		}
		ids[i] = node
	}
	return ids
}

type stackValue struct {
	stack uint32
	value int64
	span  uint64
	trace pprofconv.TraceID
}

func compareSamples(a, b stackValue) int {
	switch {
	case a.stack != b.stack:
		return cmp.Compare(a.stack, b.stack)
	case a.span != b.span:
		return cmp.Compare(a.span, b.span)
	}
	return bytes.Compare(a.trace[:], b.trace[:])
}

// NewProfileID returns a new random profile id (a version 4 UUID).
func NewProfileID() ProfileID { return ProfileID(uuid.New()) }

// String writes the id in the UUID text form.
func (id ProfileID) String() string { return uuid.UUID(id).String() }

// ParseProfileID parses a UUID.
func ParseProfileID(s string) (ProfileID, error) {
	u, err := uuid.Parse(s)
	return ProfileID(u), err
}

// perStack sums sorted samples per stack (dropping span ids).
func perStack(s []stackValue) []stackValue {
	out := make([]stackValue, 0, len(s))
	for _, v := range s {
		if n := len(out); n > 0 && out[n-1].stack == v.stack {
			out[n-1].value = SaturatingAdd(out[n-1].value, v.value)
			continue
		}
		out = append(out, stackValue{stack: v.stack, value: v.value})
	}
	return slices.DeleteFunc(out, func(v stackValue) bool { return v.value == 0 })
}

// mergeSame sums adjacent entries of sorted samples with the same stack,
// span and trace.
func mergeSame(s []stackValue) []stackValue {
	out := s[:0]
	for _, v := range s {
		if n := len(out); n > 0 && out[n-1].stack == v.stack && out[n-1].span == v.span && out[n-1].trace == v.trace {
			out[n-1].value = SaturatingAdd(out[n-1].value, v.value)
			continue
		}
		out = append(out, v)
	}
	return slices.DeleteFunc(out, func(v stackValue) bool { return v.value == 0 })
}
