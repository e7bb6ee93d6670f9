// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package storage

import "encoding/binary"

const (
	tableString  byte = 'S'
	tableStack   byte = 'K'
	tableSeries  byte = 'L'
	tableProfile byte = 'P'
	tableMeta    byte = 'M'
)

var metaProfileSeq = append([]byte{tableMeta}, "profile_seq"...)

func idKey(table byte, id uint32) []byte {
	k := make([]byte, 5)
	k[0] = table
	binary.BigEndian.PutUint32(k[1:], id)
	return k
}

// sortableTime maps signed nanoseconds onto unsigned values in the same order.
func sortableTime(t int64) uint64 { return uint64(t) ^ (1 << 63) }

func unsortableTime(u uint64) int64 { return int64(u ^ (1 << 63)) }

func profileKey(series uint32, t int64, seq uint64) []byte {
	k := make([]byte, 21)
	k[0] = tableProfile
	binary.BigEndian.PutUint32(k[1:], series)
	binary.BigEndian.PutUint64(k[5:], sortableTime(t))
	binary.BigEndian.PutUint64(k[13:], seq)
	return k
}

// profileBound returns the first key of series at or after time t.
func profileBound(series uint32, t int64) []byte {
	k := make([]byte, 13)
	k[0] = tableProfile
	binary.BigEndian.PutUint32(k[1:], series)
	binary.BigEndian.PutUint64(k[5:], sortableTime(t))
	return k
}

func parseProfileKey(k []byte) (series uint32, t int64, ok bool) {
	if len(k) != 21 || k[0] != tableProfile {
		return 0, 0, false
	}
	return binary.BigEndian.Uint32(k[1:]), unsortableTime(binary.BigEndian.Uint64(k[5:])), true
}

// prefixEnd returns the smallest key after every key starting with prefix.
func prefixEnd(prefix []byte) []byte {
	end := append([]byte(nil), prefix...)
	for i := len(end) - 1; i >= 0; i-- {
		if end[i] < 0xff {
			end[i]++
			return end[:i+1]
		}
	}
	return nil
}
