// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Package fileformat decodes a profile file someone opens (rather than a
// profiler's push) into a pprof profile: pprof (gzipped or not), collapsed or
// folded stacks ("a;b;c 10" per line) and Chrome/Node CPU profiles
// (.cpuprofile). The format is told by the content, not the file's name.
//
// Every file passes the guards ingest has (bounded decompression, UTF-8
// strings, bounded stack depth, bounded sample count) under limits of its
// own: a benchmark's profile is larger than a profiler's 10-second push.
// Every refusal is an *Error naming the file and what was wrong.
package fileformat
