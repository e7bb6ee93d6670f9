// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Package novelty grades each profile of a series by how new it looks
// against the series' recent history, from one small vector per profile:
// no stacks or functions are held.
//
// The vector (version 1, see Vector) keeps a profile's K largest self
// contributors (functions, or whole stacks with ByStack) exactly, as their
// share of the profile, and feature-hashes the rest into D signed buckets;
// the whole is L2-normalised. Cosine estimates the similarity of two
// profiles from their vectors; Merge combines the vectors of profiles as
// merging the profiles would.
//
// A Series scores vectors in time order: the score is 1 − the highest
// cosine similarity to the last H vectors of the series, or with
// clustering the distance to the nearest cluster centroid (a vector within
// Threshold of a centroid joins its cluster). A profile is novel when its
// score exceeds Threshold (default 0.1) after a warm-up, and Changes names
// the functions whose share moved most against what it matched.
//
// The pipeline functions serve the datasource: ProfilePoints for a store
// that answers per-profile vectors (profiles of one push merged into one
// point), Windows and WindowPoints for servers without vectors (one merged
// tree per step window, a bounded number of windows), ScoreSeries for both.
package novelty
