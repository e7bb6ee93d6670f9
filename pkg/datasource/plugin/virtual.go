// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"context"

	"github.com/emberscope/emberscope/pkg/datasource/labelframes"
	"github.com/emberscope/emberscope/pkg/datasource/source"
	"github.com/emberscope/emberscope/pkg/profile/flame"
)

// virtualTree builds a tree with virtual base frames made from the values of
// labels (frames_from_label, or "Q by (...)"), at most limit values per label,
// asking src (the datasource's source, or its granular view) for the stacks.
func (d *Datasource) virtualTree(ctx context.Context, src source.Source, req source.StacksRequest, labels []string, sep string, limit int) (*flame.Tree, error) {
	return labelframes.Build(ctx, src, req, labels, sep, labelframes.Options{Limit: limit})
}
