// Package novelty scores how new a profile looks against the recent history
// of its series, without keeping any stacks.
//
// A profile (or the merged profile of a time window) is summarised once, in
// one pass over its flame.Tree, into a Vector of Dims float32s: every frame
// name is hashed into one of Dims buckets with a hash-chosen sign (signed
// feature hashing), weighted by its self share (self value / profile total),
// and the vector is L2-normalised. Self shares make the vector independent
// of how many samples a window holds, so a busy window and a quiet one of
// the same code look alike; the sign halves the bias that hash collisions put
// on dot products. After NewSummary returns, the tree can be dropped.
//
// A Scorer keeps per series only an exponentially weighted mean of the
// vectors seen and an exponentially weighted mean and variance of the
// distances seen (O(Dims) memory per series). Each new vector's score is its
// cosine distance to the mean vector, clamped to 0..1; it is novel when the
// score exceeds mean + K·stddev of the past distances (and an absolute
// floor), once WarmUp vectors have been seen. Everything is deterministic:
// the same vectors in the same order give the same scores.
package novelty
