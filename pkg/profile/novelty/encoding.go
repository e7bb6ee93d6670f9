// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package novelty

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// The binary form of a Vector (version 2), little-endian:
//
//	u8 version, u8 by, uvarint K, uvarint D, f32 scale,
//	uvarint n, n × (uvarint ref, f32 weight)        kept features
//	uvarint m, m × (uvarint index delta, f32 value)  non-zero buckets
//	uvarint g, g × (uvarint ref, f32 share)          inclusive groups (version 2)
//	uvarint samples                                  Vector.Samples (version 3)
//
// Versions 1 (without the groups) and 2 (without the sample count) still
// decode: stores written before keep working, their scores lacking the
// inclusive features until the history is of version 2 vectors, and the
// surprise score reading their sampling noise from the history alone.
//
// A kept feature is written as a reference the caller chooses (the store
// writes its string or stack id; the vectors API an index into the names
// it sends), so names are not repeated per profile.

// ErrCorrupt is returned for a vector that does not decode.
var ErrCorrupt = errors.New("novelty: corrupt vector")

// AppendBinary appends v's binary form to b; ref returns the reference of a
// kept feature.
func (v *Vector) AppendBinary(b []byte, ref func(e Entry) uint64) []byte {
	b = append(b, Version, byte(v.Params.By))
	b = binary.AppendUvarint(b, uint64(v.Params.K))
	b = binary.AppendUvarint(b, uint64(v.Params.D))
	b = binary.LittleEndian.AppendUint32(b, math.Float32bits(v.Scale))
	b = binary.AppendUvarint(b, uint64(len(v.Exact)))
	for _, e := range v.Exact {
		b = binary.AppendUvarint(b, ref(e))
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(e.Weight))
	}
	m := 0
	for _, x := range v.Buckets {
		if x != 0 {
			m++
		}
	}
	b = binary.AppendUvarint(b, uint64(m))
	prev := 0
	for i, x := range v.Buckets {
		if x != 0 {
			b = binary.AppendUvarint(b, uint64(i-prev))
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
			prev = i
		}
	}
	b = binary.AppendUvarint(b, uint64(len(v.Groups)))
	for _, e := range v.Groups {
		b = binary.AppendUvarint(b, ref(e))
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(e.Weight))
	}
	return binary.AppendUvarint(b, uint64(v.Samples))
}

// Decode reads a vector written by AppendBinary; name resolves a kept
// feature's reference to its key.
func Decode(b []byte, name func(ref uint64) (string, error)) (Vector, error) {
	r := decoder{b: b}
	ver := r.byte()
	if r.err == nil && (ver < 1 || ver > Version) {
		return Vector{}, fmt.Errorf("novelty: vector version %d, this build reads versions 1 to %d", ver, Version)
	}
	var v Vector
	v.Params.By = By(r.byte())
	v.Params.K = int(r.uvarint(4096))
	v.Params.D = int(r.uvarint(65536))
	v.Scale = r.f32()
	n := r.uvarint(uint64(v.Params.K))
	if r.err != nil {
		return Vector{}, r.err
	}
	if n > 0 {
		v.Exact = make([]Entry, n)
	}
	for i := range v.Exact {
		ref := r.uvarint(math.MaxUint64)
		v.Exact[i].Weight = r.f32()
		if r.err != nil {
			return Vector{}, r.err
		}
		key, err := name(ref)
		if err != nil {
			return Vector{}, fmt.Errorf("novelty: vector feature %d: %w", i, err)
		}
		v.Exact[i].Key, v.Exact[i].Hash = key, KeyHash(v.Params.By, key)
	}
	m := r.uvarint(uint64(v.Params.D))
	if r.err == nil && m > 0 {
		v.Buckets = make([]float32, v.Params.D)
	}
	idx := 0
	for i := uint64(0); i < m && r.err == nil; i++ {
		idx += int(r.uvarint(uint64(v.Params.D)))
		if idx >= v.Params.D {
			return Vector{}, ErrCorrupt
		}
		v.Buckets[idx] = r.f32()
	}
	if ver >= 2 {
		g := r.uvarint(4096)
		if r.err == nil && g > 0 {
			v.Groups = make([]Entry, g)
		}
		for i := range v.Groups {
			ref := r.uvarint(math.MaxUint64)
			v.Groups[i].Weight = r.f32()
			if r.err != nil {
				return Vector{}, r.err
			}
			key, err := name(ref)
			if err != nil {
				return Vector{}, fmt.Errorf("novelty: vector group %d: %w", i, err)
			}
			v.Groups[i].Key, v.Groups[i].Hash = key, fnv64a(key)
		}
	}
	if ver >= 3 {
		v.Samples = float64(r.uvarint(MaxSamples))
	}
	if r.err != nil {
		return Vector{}, r.err
	}
	if len(r.b) != 0 {
		return Vector{}, fmt.Errorf("%w: %d trailing bytes", ErrCorrupt, len(r.b))
	}
	if _, err := v.Params.WithDefaults(); err != nil || v.Params.K == 0 {
		return Vector{}, fmt.Errorf("%w: parameters %+v", ErrCorrupt, v.Params)
	}
	sortExact(v.Exact)
	sortExact(v.Groups)
	return v, nil
}

type decoder struct {
	b   []byte
	err error
}

func (d *decoder) byte() byte {
	if d.err != nil || len(d.b) < 1 {
		d.err = ErrCorrupt
		return 0
	}
	x := d.b[0]
	d.b = d.b[1:]
	return x
}

func (d *decoder) uvarint(limit uint64) uint64 {
	if d.err != nil {
		return 0
	}
	x, n := binary.Uvarint(d.b)
	if n <= 0 || x > limit {
		d.err = ErrCorrupt
		return 0
	}
	d.b = d.b[n:]
	return x
}

func (d *decoder) f32() float32 {
	if d.err != nil || len(d.b) < 4 {
		d.err = ErrCorrupt
		return 0
	}
	x := math.Float32frombits(binary.LittleEndian.Uint32(d.b))
	d.b = d.b[4:]
	return x
}
