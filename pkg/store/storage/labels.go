// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package storage

import "github.com/emberscope/emberscope/pkg/profile/model"

// Label is one name=value pair of a series.
type Label = model.Label

// Labels is a series' label set, sorted by name. Its Key (model.Labels.Key,
// every name and value preceded by its uvarint length) is the series' map
// key in memory only: on disk a series is its list of string IDs, so the
// key's encoding is not part of the data directory's format.
type Labels = model.Labels
