// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package pprofconv

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/klauspost/compress/gzip"
	"io"
	"sync"
)

// decoded is the part of a pprof profile (profile.proto) that a merge into a
// call tree reads, decoded straight from the bytes: sample types, samples
// (location ids and values), locations (address and the function of each
// line) and function names. Mappings, labels, file names and line numbers are
// skipped. Strings are sub-slices of the decoded bytes, not copies.
//
// It exists because building a *profile.Profile (a struct and a map per
// sample, a string per table entry) costs far more than the merge itself;
// everything else reads profiles with google/pprof.
type decoded struct {
	strings     [][]byte
	sampleTypes []valueType
	samples     []decodedSample
	locations   []decodedLocation
	functions   []decodedFunction
	// arenas the samples and locations point into
	locIDs []uint64
	values []int64
	lines  []uint64 // function id of each line
}

type valueType struct{ typ, unit int64 }

type decodedSample struct{ locOff, locN, valOff, valN int32 }

type decodedLocation struct {
	id, address    uint64
	lineOff, lineN int32
}

type decodedFunction struct {
	id   uint64
	name int64
}

// Field numbers of profile.proto.
const (
	fieldProfileSampleType = 1
	fieldProfileSample     = 2
	fieldProfileLocation   = 4
	fieldProfileFunction   = 5
	fieldProfileString     = 6

	fieldSampleLocation = 1
	fieldSampleValue    = 2

	fieldLocationID      = 1
	fieldLocationAddress = 3
	fieldLocationLine    = 4

	fieldLineFunction = 1

	fieldFunctionID   = 1
	fieldFunctionName = 2

	fieldValueTypeType = 1
	fieldValueTypeUnit = 2
)

// Protobuf wire types.
const (
	wireVarint  = 0
	wireFixed64 = 1
	wireBytes   = 2
	wireFixed32 = 5
)

var errTruncated = errors.New("truncated protobuf")

var gzipReaders sync.Pool

// gunzip returns data uncompressed when it starts with the gzip magic, as
// google/pprof's ParseData does, and data itself otherwise.
func gunzip(data []byte, buf *bytes.Buffer) ([]byte, error) {
	if len(data) < 2 || data[0] != 0x1f || data[1] != 0x8b {
		return data, nil
	}
	zr, _ := gzipReaders.Get().(*gzip.Reader)
	var err error
	if zr == nil {
		zr, err = gzip.NewReader(bytes.NewReader(data))
	} else {
		err = zr.Reset(bytes.NewReader(data))
	}
	if err != nil {
		return nil, fmt.Errorf("gzip: %w", err)
	}
	defer gzipReaders.Put(zr)
	buf.Reset()
	if _, err := io.Copy(buf, zr); err != nil {
		return nil, fmt.Errorf("gzip: %w", err)
	}
	return buf.Bytes(), nil
}

// decode reads a pprof profile, gzipped or not, into d (reusing its
// slices). The bytes must outlive d: its strings point into them (a gzipped
// profile is uncompressed into buf). It fails on malformed protobuf and on
// string indexes outside the string table.
func (d *decoded) decode(data []byte, buf *bytes.Buffer) error {
	if len(data) == 0 {
		return errors.New("empty profile")
	}
	raw, err := gunzip(data, buf)
	if err != nil {
		return err
	}
	*d = decoded{
		strings: d.strings[:0], sampleTypes: d.sampleTypes[:0], samples: d.samples[:0],
		locations: d.locations[:0], functions: d.functions[:0],
		locIDs: d.locIDs[:0], values: d.values[:0], lines: d.lines[:0],
	}
	err = fields(raw, func(field, wire int, v uint64, b []byte) error {
		switch field {
		case fieldProfileSampleType:
			var vt valueType
			err := message(wire, b, func(field, wire int, v uint64, _ []byte) error {
				switch field {
				case fieldValueTypeType:
					return varint(wire, v, &vt.typ)
				case fieldValueTypeUnit:
					return varint(wire, v, &vt.unit)
				}
				return nil
			})
			d.sampleTypes = append(d.sampleTypes, vt)
			return err
		case fieldProfileSample:
			return d.sample(wire, b)
		case fieldProfileLocation:
			return d.location(wire, b)
		case fieldProfileFunction:
			var f decodedFunction
			err := message(wire, b, func(field, wire int, v uint64, _ []byte) error {
				switch field {
				case fieldFunctionID:
					return uvarint(wire, v, &f.id)
				case fieldFunctionName:
					return varint(wire, v, &f.name)
				}
				return nil
			})
			d.functions = append(d.functions, f)
			return err
		case fieldProfileString:
			if wire != wireBytes {
				return fmt.Errorf("string table entry has wire type %d", wire)
			}
			d.strings = append(d.strings, b)
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, f := range d.functions {
		if f.name < 0 || f.name >= int64(len(d.strings)) {
			return fmt.Errorf("function %d: name index %d outside the string table of %d", f.id, f.name, len(d.strings))
		}
	}
	for i, st := range d.sampleTypes {
		if st.typ < 0 || st.typ >= int64(len(d.strings)) || st.unit < 0 || st.unit >= int64(len(d.strings)) {
			return fmt.Errorf("sample type %d: string index outside the string table of %d", i, len(d.strings))
		}
	}
	return nil
}

func (d *decoded) sample(wire int, b []byte) error {
	s := decodedSample{locOff: int32(len(d.locIDs)), valOff: int32(len(d.values))}
	err := message(wire, b, func(field, wire int, v uint64, b []byte) error {
		switch field {
		case fieldSampleLocation:
			return repeated(wire, v, b, func(x uint64) { d.locIDs = append(d.locIDs, x) })
		case fieldSampleValue:
			return repeated(wire, v, b, func(x uint64) { d.values = append(d.values, int64(x)) })
		}
		return nil
	})
	s.locN = int32(len(d.locIDs)) - s.locOff
	s.valN = int32(len(d.values)) - s.valOff
	d.samples = append(d.samples, s)
	return err
}

func (d *decoded) location(wire int, b []byte) error {
	l := decodedLocation{lineOff: int32(len(d.lines))}
	err := message(wire, b, func(field, wire int, v uint64, b []byte) error {
		switch field {
		case fieldLocationID:
			return uvarint(wire, v, &l.id)
		case fieldLocationAddress:
			return uvarint(wire, v, &l.address)
		case fieldLocationLine:
			var fn uint64
			err := message(wire, b, func(field, wire int, v uint64, _ []byte) error {
				if field == fieldLineFunction {
					return uvarint(wire, v, &fn)
				}
				return nil
			})
			d.lines = append(d.lines, fn)
			return err
		}
		return nil
	})
	l.lineN = int32(len(d.lines)) - l.lineOff
	d.locations = append(d.locations, l)
	return err
}

func (d *decoded) sampleLocations(s decodedSample) []uint64 {
	return d.locIDs[s.locOff : s.locOff+s.locN]
}

func (d *decoded) sampleValues(s decodedSample) []int64 {
	return d.values[s.valOff : s.valOff+s.valN]
}

func (d *decoded) locationLines(l decodedLocation) []uint64 {
	return d.lines[l.lineOff : l.lineOff+l.lineN]
}

// fields calls f for every field of the protobuf message in b: v holds a
// varint or fixed value, b the bytes of a length-delimited one.
func fields(b []byte, f func(field, wire int, v uint64, b []byte) error) error {
	for len(b) > 0 {
		key, n := readVarint(b)
		if n == 0 {
			return errTruncated
		}
		b = b[n:]
		field, wire := int(key>>3), int(key&7)
		var v uint64
		var data []byte
		switch wire {
		case wireVarint:
			if v, n = readVarint(b); n == 0 {
				return errTruncated
			}
			b = b[n:]
		case wireFixed64:
			if len(b) < 8 {
				return errTruncated
			}
			for i := 7; i >= 0; i-- {
				v = v<<8 | uint64(b[i])
			}
			b = b[8:]
		case wireFixed32:
			if len(b) < 4 {
				return errTruncated
			}
			for i := 3; i >= 0; i-- {
				v = v<<8 | uint64(b[i])
			}
			b = b[4:]
		case wireBytes:
			l, n := readVarint(b)
			if n == 0 || l > uint64(len(b)-n) {
				return errTruncated
			}
			data, b = b[n:n+int(l)], b[n+int(l):]
		default:
			return fmt.Errorf("unknown protobuf wire type %d", wire)
		}
		if err := f(field, wire, v, data); err != nil {
			return err
		}
	}
	return nil
}

// message decodes a length-delimited field as a message.
func message(wire int, b []byte, f func(field, wire int, v uint64, b []byte) error) error {
	if wire != wireBytes {
		return fmt.Errorf("message field has wire type %d", wire)
	}
	return fields(b, f)
}

func varint(wire int, v uint64, x *int64) error {
	if wire != wireVarint {
		return fmt.Errorf("integer field has wire type %d", wire)
	}
	*x = int64(v)
	return nil
}

func uvarint(wire int, v uint64, x *uint64) error {
	if wire != wireVarint {
		return fmt.Errorf("integer field has wire type %d", wire)
	}
	*x = v
	return nil
}

// repeated decodes a repeated integer field, packed or one value per field.
func repeated(wire int, v uint64, b []byte, add func(uint64)) error {
	switch wire {
	case wireVarint:
		add(v)
		return nil
	case wireBytes:
		for len(b) > 0 {
			x, n := readVarint(b)
			if n == 0 {
				return errTruncated
			}
			add(x)
			b = b[n:]
		}
		return nil
	}
	return fmt.Errorf("repeated integer field has wire type %d", wire)
}

// readVarint returns the varint at the start of b and its length, 0 when b
// does not start with a complete varint of at most 10 bytes.
func readVarint(b []byte) (uint64, int) {
	var x uint64
	for i := 0; i < len(b) && i < 10; i++ {
		c := b[i]
		x |= uint64(c&0x7f) << (7 * i)
		if c < 0x80 {
			return x, i + 1
		}
	}
	return 0, 0
}
