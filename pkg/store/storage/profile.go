// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package storage

import (
	"crypto/sha256"
	"encoding/binary"

	"github.com/emberscope/emberscope/pkg/profile/pprofconv"
)

// Weight is one entry of the version-0 vector older stores wrote at the end
// of a profile record: the hash of a leaf frame name and its share of the
// profile's total, scaled to 0..65535. New records leave it empty; novelty
// vectors live in table 'V' (vectors.go).
type Weight struct {
	Hash  uint32
	Share uint16
}

// ProfileID is the server's id of one ingested profile (a UUID): every
// series record made from one pprof shares it, as in Pyroscope, where the
// id is the server's own and not the push's sample ID.
type ProfileID [16]byte

// profileRecordV1 marks the trailer of records written with profile ids and
// span columns.
const profileRecordV1 = 1

// encodeProfile encodes a profile record:
//
//	total (varint), sample count n, n × (stack id delta, value), legacy vector
//	(count, then hash and share pairs; empty since novelty vectors moved to 'V'),
//	then the v1 trailer: version 1, the 16-byte profile id, trace count m,
//	m × 16-byte trace ids, span flag (0: no sample has a span or trace;
//	1: n × (8-byte big-endian span id, trace index + 1 or 0)).
//
// Samples are sorted by stack id, then span id and trace id; a stack that
// carries several spans repeats with a delta of 0, so readers that sum per
// stack (flamegraphs) read it as before. Records without the trailer (older
// stores) have no spans and the id legacyProfileID derives from their key.
func encodeProfile(samples []stackValue, vec []Weight, id ProfileID) []byte {
	var total int64
	spans := false
	for _, s := range samples {
		total = SaturatingAdd(total, s.value)
		if s.span != 0 || s.trace != (pprofconv.TraceID{}) {
			spans = true
		}
	}
	b := make([]byte, 0, 32+len(samples)*4+len(vec)*6)
	b = putVarint(b, total)
	b = putUvarint(b, uint64(len(samples)))
	prev := uint32(0)
	for _, s := range samples {
		b = putUvarint(b, uint64(s.stack-prev))
		b = putVarint(b, s.value)
		prev = s.stack
	}
	b = putUvarint(b, uint64(len(vec)))
	for _, w := range vec {
		b = putUvarint(b, uint64(w.Hash))
		b = putUvarint(b, uint64(w.Share))
	}
	b = putUvarint(b, profileRecordV1)
	b = append(b, id[:]...)
	if !spans {
		b = putUvarint(b, 0)
		return putUvarint(b, 0)
	}
	traces := make(map[pprofconv.TraceID]uint64)
	var order []pprofconv.TraceID
	for _, s := range samples {
		if s.trace == (pprofconv.TraceID{}) {
			continue
		}
		if _, ok := traces[s.trace]; !ok {
			traces[s.trace] = uint64(len(order))
			order = append(order, s.trace)
		}
	}
	b = putUvarint(b, uint64(len(order)))
	for _, t := range order {
		b = append(b, t[:]...)
	}
	b = putUvarint(b, 1)
	for _, s := range samples {
		b = binary.BigEndian.AppendUint64(b, s.span)
		ti := uint64(0)
		if s.trace != (pprofconv.TraceID{}) {
			ti = traces[s.trace] + 1
		}
		b = putUvarint(b, ti)
	}
	return b
}

// Profile is one stored profile.
type Profile struct {
	Series uint32
	Time   int64
	Total  int64
	// ID is the profile's id (shared by the series records of one ingested profile).
	ID ProfileID
	// Stacks and Values are the samples, sorted by stack id (a stack
	// repeats when its samples carry different spans).
	Stacks []uint32
	Values []int64
	// Spans and Traces are each sample's span id and trace id (zero: none);
	// both are empty when no sample of the profile has one.
	Spans  []uint64
	Traces []pprofconv.TraceID
	Vector []Weight
}

// HasSpans tells whether the profile's samples carry span or trace ids.
func (p *Profile) HasSpans() bool { return len(p.Spans) > 0 }

// decodeProfile decodes v (stored under key k) into p, reusing p's slices.
// With totalOnly set only Total is decoded.
func decodeProfile(k, v []byte, p *Profile, totalOnly bool) error {
	r := reader{b: v}
	p.Total = r.varint()
	p.Stacks, p.Values, p.Vector = p.Stacks[:0], p.Values[:0], p.Vector[:0]
	p.Spans, p.Traces = p.Spans[:0], p.Traces[:0]
	p.ID = ProfileID{}
	if totalOnly {
		return r.err
	}
	n := r.uvarint()
	if r.err == nil && n > uint64(len(r.b)) {
		return errCorrupt
	}
	prev := uint32(0)
	for i := uint64(0); i < n && r.err == nil; i++ {
		d, val := r.uvarint(), r.varint()
		prev += uint32(d)
		p.Stacks = append(p.Stacks, prev)
		p.Values = append(p.Values, val)
	}
	m := r.uvarint()
	for i := uint64(0); i < m && r.err == nil; i++ {
		h, s := r.uvarint(), r.uvarint()
		p.Vector = append(p.Vector, Weight{uint32(h), uint16(s)})
	}
	if r.err != nil {
		return r.err
	}
	if len(r.b) == 0 {
		p.ID = legacyProfileID(k)
		return nil
	}
	if r.uvarint() != profileRecordV1 || len(r.b) < 16 {
		return errCorrupt
	}
	copy(p.ID[:], r.b[:16])
	r.b = r.b[16:]
	nt := r.uvarint()
	if r.err != nil || nt > uint64(len(r.b))/16 {
		return errCorrupt
	}
	traces := make([]pprofconv.TraceID, nt)
	for i := range traces {
		copy(traces[i][:], r.b[:16])
		r.b = r.b[16:]
	}
	if r.uvarint() == 0 {
		return r.err
	}
	for i := uint64(0); i < n && r.err == nil; i++ {
		if len(r.b) < 8 {
			return errCorrupt
		}
		p.Spans = append(p.Spans, binary.BigEndian.Uint64(r.b))
		r.b = r.b[8:]
		ti := r.uvarint()
		switch {
		case ti == 0:
			p.Traces = append(p.Traces, pprofconv.TraceID{})
		case ti <= nt:
			p.Traces = append(p.Traces, traces[ti-1])
		default:
			return errCorrupt
		}
	}
	return r.err
}

// legacyProfileID is the id of a profile stored before profiles had ids:
// a UUID (version 8, RFC 9562) derived from its key, stable across restarts.
func legacyProfileID(k []byte) ProfileID {
	sum := sha256.Sum256(k)
	var id ProfileID
	copy(id[:], sum[:16])
	id[6] = id[6]&0x0f | 0x80
	id[8] = id[8]&0x3f | 0x80
	return id
}
