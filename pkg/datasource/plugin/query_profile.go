// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"context"

	"github.com/grafana/grafana-plugin-sdk-go/data"

	"github.com/emberscope/emberscope/pkg/datasource/dataframes"
	"github.com/emberscope/emberscope/pkg/datasource/labelframes"
)

// queryProfile answers a "profile" query with one flamegraph frame.
func (d *Datasource) queryProfile(ctx context.Context, r *request) (data.Frames, error) {
	ctx, notices := labelframes.WithNotices(ctx)
	t, err := d.tree(ctx, r)
	if err != nil {
		return nil, err
	}
	f := dataframes.Flamegraph(t, dataframes.UnitOfProfileType(r.Query.ProfileTypeID))
	for _, n := range notices.List() {
		f.AppendNotices(data.Notice{Severity: data.NoticeSeverityWarning, Text: n})
	}
	return data.Frames{f}, nil
}
