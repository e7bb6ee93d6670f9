// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package source

import (
	"context"
	"errors"
	"time"

	"github.com/emberscope/emberscope/pkg/profile/model"
	"github.com/emberscope/emberscope/pkg/profile/novelty"
)

// ErrNoVectors is what a VectorSource returns when its server keeps no
// per-profile vectors (a Pyroscope or Parca server rather than our store).
var ErrNoVectors = errors.New("the server keeps no per-profile novelty vectors")

// ProfileVector is the novelty vector one server kept for one profile of
// one series.
type ProfileVector struct {
	Labels model.Labels
	Time   time.Time
	Total  int64
	// Sampled marks a profile whose stacks were not kept (sampling at
	// ingest kept its total, labels and vector).
	Sampled bool
	Vector  novelty.Vector
}

// VectorSource is a Source that may answer per-profile vectors.
type VectorSource interface {
	// Vectors returns the vector of every profile of the selection, in any
	// order; ErrNoVectors (wrapped) when the server keeps none.
	Vectors(ctx context.Context, s Selection) ([]ProfileVector, error)
}
