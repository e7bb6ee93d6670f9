// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"hash"
	"math"
	"time"

	"github.com/grafana/grafana-plugin-sdk-go/data"
)

// dataFingerprint summarises frames so that a live stream sends only when
// the data changed. A time series frame counts by its labels and its
// non-zero points (so a new profile changes its totals or its last
// timestamp, while a window sliding over empty buckets changes nothing).
// Any other frame (flamegraph, top table, labels) counts by every value of
// every row, as none depends on the clock.
func dataFingerprint(frames data.Frames) string {
	h := sha256.New()
	for _, f := range frames {
		fmt.Fprintf(h, "frame %q %q rows=%d fields=%d\n", f.Name, f.RefID, f.Rows(), len(f.Fields))
		if timeField(f) >= 0 {
			seriesFingerprint(h, f)
			continue
		}
		for _, fl := range f.Fields {
			fmt.Fprintf(h, "field %q %s %s\n", fl.Name, fl.Type(), fl.Labels.String())
			hashValues(h, fl)
		}
	}
	return base64.RawStdEncoding.EncodeToString(h.Sum(nil))
}

// timeField is the index of the frame's time field, or -1.
func timeField(f *data.Frame) int {
	for i, fl := range f.Fields {
		if fl.Type() == data.FieldTypeTime || fl.Type() == data.FieldTypeNullableTime {
			return i
		}
	}
	return -1
}

// seriesFingerprint writes, per value field, its labels and its non-zero
// points. Empty buckets do not count, so a window that slides over them does
// not change the fingerprint; live ranges are aligned to the step, so the
// same data falls on the same timestamps at every run.
func seriesFingerprint(h hash.Hash, f *data.Frame) {
	ti := timeField(f)
	for i, fl := range f.Fields {
		if i == ti || !fl.Type().Numeric() {
			continue
		}
		fmt.Fprintf(h, "series %q %s\n", fl.Name, fl.Labels.String())
		for row := 0; row < fl.Len(); row++ {
			v, err := fl.FloatAt(row)
			if err != nil || v == 0 {
				continue
			}
			var ts int64
			if t, ok := f.Fields[ti].ConcreteAt(row); ok {
				ts = t.(time.Time).UnixNano()
			}
			fmt.Fprintf(h, "%d=%v\n", ts, v)
		}
	}
}

// hashValues writes every value of a field: the common column types of our
// frames directly, any other through fmt.
func hashValues(h hash.Hash, fl *data.Field) {
	buf := make([]byte, 0, 4096)
	flush := func() {
		if len(buf) > 3072 {
			h.Write(buf)
			buf = buf[:0]
		}
	}
	for i := 0; i < fl.Len(); i++ {
		switch fl.Type() {
		case data.FieldTypeInt64:
			buf = binary.LittleEndian.AppendUint64(buf, uint64(fl.At(i).(int64)))
		case data.FieldTypeFloat64:
			buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(fl.At(i).(float64)))
		case data.FieldTypeEnum:
			buf = binary.LittleEndian.AppendUint16(buf, uint16(fl.At(i).(data.EnumItemIndex)))
		case data.FieldTypeBool:
			if fl.At(i).(bool) {
				buf = append(buf, 1)
			} else {
				buf = append(buf, 0)
			}
		case data.FieldTypeString:
			v := fl.At(i).(string)
			buf = binary.LittleEndian.AppendUint32(buf, uint32(len(v)))
			buf = append(buf, v...)
		default:
			buf = fmt.Appendf(buf, "%v\x00", fl.At(i))
		}
		flush()
	}
	h.Write(buf)
}
