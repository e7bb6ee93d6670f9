// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Package labelframes makes virtual frames at query time, over any source.Source:
// frames_from_label(Q, "category", "route") (or Q by (category, route))
// becomes one MergeStacks call per combination of label values, each answer
// grafted under frames named for its values. Nothing is copied in storage.
//
// Samples without a label go under one frame for the missing value, named by
// MissingName ("(no category)"); values beyond a limit fold into one "other"
// frame; a separator splits a value such as "observability :: metrics" into
// nested frames. The root total always equals the plain query's total.
//
// Contribution answers the labels view: each value's total and share of the
// whole, from one grouped Series call.
package labelframes
