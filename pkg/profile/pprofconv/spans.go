// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package pprofconv

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
)

// ErrSpanIDLength is the error of a span id that is not 16 hex digits; its
// text is Pyroscope's ("invalid span id length").
var ErrSpanIDLength = errors.New("invalid span id length")

// ParseSpanID parses a span id of 16 hex digits (8 bytes) into a number;
// the all-zero id is no span.
func ParseSpanID(s string) (uint64, error) {
	if len(s) != 16 {
		return 0, ErrSpanIDLength
	}
	var b [8]byte
	if _, err := hex.Decode(b[:], []byte(s)); err != nil {
		return 0, err
	}
	return binary.BigEndian.Uint64(b[:]), nil
}

// FormatSpanID writes a span id as 16 lower-case hex digits.
func FormatSpanID(id uint64) string {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], id)
	return hex.EncodeToString(b[:])
}

// ParseTraceID parses a trace id of 32 hex digits (16 bytes).
func ParseTraceID(s string) (TraceID, error) {
	var t TraceID
	if len(s) != 32 {
		return t, errors.New("invalid trace id length")
	}
	if _, err := hex.Decode(t[:], []byte(s)); err != nil {
		return TraceID{}, err
	}
	return t, nil
}

// String writes the trace id as 32 lower-case hex digits.
func (t TraceID) String() string { return hex.EncodeToString(t[:]) }

// IsZero tells whether t is no trace.
func (t TraceID) IsZero() bool { return t == TraceID{} }
