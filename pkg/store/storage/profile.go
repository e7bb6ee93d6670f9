// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package storage

// Weight is one entry of the version-0 vector older stores wrote at the end
// of a profile record: the hash of a leaf frame name and its share of the
// profile's total, scaled to 0..65535. New records leave it empty; novelty
// vectors live in table 'V' (vectors.go).
type Weight struct {
	Hash  uint32
	Share uint16
}

// encodeProfile encodes samples sorted by stack id, then the vector.
func encodeProfile(samples []stackValue, vec []Weight) []byte {
	var total int64
	for _, s := range samples {
		total = SaturatingAdd(total, s.value)
	}
	b := make([]byte, 0, 8+len(samples)*4+len(vec)*6)
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
	return b
}

// Profile is one stored profile.
type Profile struct {
	Series uint32
	Time   int64
	Total  int64
	// Stacks and Values are the samples, sorted by stack id.
	Stacks []uint32
	Values []int64
	Vector []Weight
}

// decodeProfile decodes v into p, reusing p's slices. With totalOnly set
// only Total is decoded.
func decodeProfile(v []byte, p *Profile, totalOnly bool) error {
	r := reader{b: v}
	p.Total = r.varint()
	p.Stacks, p.Values, p.Vector = p.Stacks[:0], p.Values[:0], p.Vector[:0]
	if totalOnly {
		return r.err
	}
	n := r.uvarint()
	if r.err == nil && n > uint64(len(r.b)) {
		return errCorrupt
	}
	prev := uint32(0)
	for i := uint64(0); i < n && r.err == nil; i++ {
		prev += uint32(r.uvarint())
		p.Stacks = append(p.Stacks, prev)
		p.Values = append(p.Values, r.varint())
	}
	m := r.uvarint()
	for i := uint64(0); i < m && r.err == nil; i++ {
		h, s := r.uvarint(), r.uvarint()
		p.Vector = append(p.Vector, Weight{uint32(h), uint16(s)})
	}
	return r.err
}
