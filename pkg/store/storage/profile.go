package storage

import (
	"hash/fnv"
	"sort"
)

// VectorSize is the number of entries of a profile's novelty vector.
const VectorSize = 16

// Weight is one entry of a novelty vector: the hash of a leaf frame name and
// its share of the profile's total, scaled to 0..65535.
type Weight struct {
	Hash  uint32
	Share uint16
}

// noveltyVector returns the VectorSize leaf frames with the largest self
// value, hashed, with their share of the total.
func noveltyVector(samples []stackValue, leafName func(uint32) string) []Weight {
	self := make(map[string]int64)
	var total int64
	for _, s := range samples {
		v := s.value
		if v < 0 {
			v = -v
		}
		self[leafName(s.stack)] += v
		total += v
	}
	if total == 0 {
		return nil
	}
	type kv struct {
		name string
		v    int64
	}
	all := make([]kv, 0, len(self))
	for n, v := range self {
		all = append(all, kv{n, v})
	}
	sort.Slice(all, func(a, b int) bool {
		if all[a].v != all[b].v {
			return all[a].v > all[b].v
		}
		return all[a].name < all[b].name
	})
	out := make([]Weight, 0, min(len(all), VectorSize))
	for _, e := range all[:min(len(all), VectorSize)] {
		h := fnv.New32a()
		h.Write([]byte(e.name))
		out = append(out, Weight{Hash: h.Sum32(), Share: uint16(e.v * 65535 / total)})
	}
	return out
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
