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
// ToTree and AddToTree build a flame.Tree straight from a parsed profile;
// Merger and MergeProfiles (which can shard the profiles over goroutines)
// merge many profiles into one tree, resolving each location of each profile
// to frame ids only once and each distinct stack to a tree leaf only once.
package pprofconv
