// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"context"
	"fmt"

	"github.com/emberscope/emberscope/pkg/datasource/source"
)

// Vectors forwards to the detected client when it keeps vectors.
func (d *detectingSource) Vectors(ctx context.Context, s source.Selection) ([]source.ProfileVector, error) {
	src, err := d.get(ctx)
	if err != nil {
		return nil, err
	}
	vs, ok := src.(source.VectorSource)
	if !ok {
		return nil, fmt.Errorf("%w (%T)", source.ErrNoVectors, src)
	}
	return vs.Vectors(ctx, s)
}
