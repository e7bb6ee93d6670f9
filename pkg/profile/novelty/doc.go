// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Package novelty grades each profile of a series by how new it looks
// against the series' recent history, from one small vector per profile:
// no stacks or functions are held.
//
// The vector (version 2, see Vector) keeps a profile's K largest self
// contributors (functions, or whole stacks with ByStack) exactly, as their
// share of the profile, and feature-hashes the rest into D signed buckets;
// the whole is L2-normalised. By function it also keeps the inclusive share
// (a function with all it calls) of the DefaultGroups largest functions.
// Cosine estimates the similarity of two profiles from their vectors; Merge
// combines the vectors of profiles as merging the profiles would. Version 1
// vectors (without the inclusive shares) still decode.
//
// A Series scores vectors in time order. By default (MethodSurprise,
// surprise.go) each feature's move — a function's self share, its
// package's, a kept inclusive share — is tested against an overdispersed
// binomial model of the last H vectors: the profile's own sampling noise
// (from Vector.Samples) plus the series' extra variation estimated from
// the history (a share a vector does not keep tested at its bound, not
// estimated from a bucket); the score is −log₁₀ of the chance of the largest move over
// all features (Bonferroni), so a threshold is a false-alarm rate
// (SurpriseThreshold: false alarms a day at a push interval). MethodSigma
// (sigma.go) standardises each move by the feature's own spread and takes
// the norm of the three largest; with MethodCosine the score is 1 − the
// highest cosine similarity to the last H vectors, or with clustering the
// distance to the nearest cluster centroid (a vector within Threshold of a
// centroid joins its cluster). A profile is novel when its score exceeds
// Threshold after a warm-up, and Changes names the features that moved
// most, with their usual and new shares and the move in σ.
//
// The pipeline functions serve the datasource: ProfilePoints for a store
// that answers per-profile vectors (profiles of one push merged into one
// point), Windows and WindowPoints for servers without vectors (one merged
// tree per step window, a bounded number of windows), ScoreSeries for both.
package novelty
