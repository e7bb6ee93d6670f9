// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Package storage keeps profiles in a Pebble database.
//
// Key layout (the first byte names the table; ids are big-endian so that
// keys sort by id; all ids are dense and allocated in order):
//
//	'S' str id (u32)                        → string          interned function names, label names and values
//	'K' stack id (u32)                      → parent id, frame string id (uvarints), then, when the frame has
//	                                          them, file string id + 1, line, mapping file + 1, build id + 1 and
//	                                          flags (1: inlined into its parent, one pprof location) and the
//	                                          function's start line (varint); a stack is a
//	                                          node of a prefix tree of frames, root first; stack 0 is the empty
//	                                          stack, so every distinct stack costs one key per frame that no other
//	                                          stack shares
//	'L' series id (u32)                     → label count, then (name id, value id) pairs (uvarints), sorted by name
//	'P' series id (u32) time (u64) seq (u64) → profile: total (varint), sample count, then (stack id delta,
//	                                          value) pairs sorted by stack id (then span and trace), an empty
//	                                          legacy vector, then version 1, the 16-byte profile id (UUID), the
//	                                          record's distinct trace ids (16 bytes each) and, when any sample has
//	                                          a span or trace, per sample its 8-byte span id and trace index
//	                                          (encodeProfile). Records and stacks written before version 1 read
//	                                          as profiles without spans, with an id derived from their key, and
//	                                          frames without file or line.
//	'V' series id (u32) time (u64) seq (u64) → the profile's novelty record (VectorHook), same key suffix
//	'M' name                                → metadata (the profile sequence counter)
//
// Times are unix nanoseconds with the sign bit flipped so that they sort.
// Series labels are kept in memory with postings (label name → value →
// series ids) rebuilt from the 'L' table at Open; the string and stack tables
// are loaded into memory too, so queries resolve stacks without reads.
// A Snapshot pairs a Pebble snapshot with those tables, taken together under
// the lock an Append holds while it commits and publishes, so a query never
// reads a profile whose stacks it does not know.
//
// Values are stored as sent, as Grafana Pyroscope v2 does: cumulative heap
// values (alloc_* of a Go heap profile) are not turned into deltas; clients
// that want deltas (pyroscope-go's godeltaprof, Grafana Alloy) send them.
//
// Every Append is one Pebble batch committed with Sync: what Append
// acknowledged is in the write-ahead log and survives a kill -9, and a
// failed Append stores nothing.
package storage
