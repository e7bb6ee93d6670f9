// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"context"

	"github.com/grafana/grafana-plugin-sdk-go/data"
	"golang.org/x/sync/errgroup"
)

// queryBoth answers a "both" query (Explore's default): the flamegraph frame
// followed by the series frames, both fetched at once.
func (d *Datasource) queryBoth(ctx context.Context, r *request) (data.Frames, error) {
	var profile, series data.Frames
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() (err error) { profile, err = d.queryProfile(gctx, r); return err })
	g.Go(func() (err error) { series, err = d.queryMetrics(gctx, r); return err })
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return append(profile, series...), nil
}
