// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"context"

	"github.com/grafana/grafana-plugin-sdk-go/data"

	"github.com/emberscope/emberscope/pkg/datasource/dataframes"
	"github.com/emberscope/emberscope/pkg/profile/flame"
)

// queryTopTable answers a "topTable" query: self and total per function of
// the query's tree, before truncation so that no function is hidden in "other".
func (d *Datasource) queryTopTable(ctx context.Context, r *request) (data.Frames, error) {
	t, err := d.fullTree(ctx, r, r.selection())
	if err != nil {
		return nil, err
	}
	return data.Frames{dataframes.TopTable(flame.TopTable(t), dataframes.UnitOfProfileType(r.Query.ProfileTypeID))}, nil
}
