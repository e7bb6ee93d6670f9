// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Package pprofconv turns pprof profiles into what the embedded store keeps,
// following the rules Grafana Pyroscope v2 applies at ingest:
//
//   - one profile type per sample type, named with Pyroscope's IDs
//     ("process_cpu:cpu:nanoseconds:cpu:nanoseconds", "memory:alloc_space:bytes:space:bytes", ...);
//   - every Line of every Location is a frame, Location[0].Line[0] is the leaf;
//   - Go generic shape sections are removed from function names
//     ("slices.Sort[go.shape.int]" becomes "slices.Sort");
//   - string sample labels become series labels (dots in their names become
//     underscores), and samples without a label form a series without it;
//   - zero-value samples are dropped.
//
// Merger and MergeProfiles (which can shard the profiles over goroutines)
// merge many pprof profiles into one tree straight from their bytes, with a
// small decoder of their own (decode.go, fuzzed against google/pprof's parser)
// instead of building *profile.Profile, resolving each location of each
// profile to frame ids only once and each distinct stack to a tree leaf only
// once. ToTree and AddToTree do the same for a parsed profile (encoding it
// first); everything else reads profiles with google/pprof.
package pprofconv
