// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"context"

	"github.com/grafana/grafana-plugin-sdk-go/data"
	"golang.org/x/sync/errgroup"

	"github.com/emberscope/emberscope/pkg/datasource/dataframes"
	"github.com/emberscope/emberscope/pkg/datasource/source"
	"github.com/emberscope/emberscope/pkg/profile/flame"
)

// queryDiff answers a "diff" query: the query's selection (the baseline, on
// the left) against its comparison's selector and range (on the right), both
// through the same pipeline, as one diff flamegraph frame.
func (d *Datasource) queryDiff(ctx context.Context, r *request) (data.Frames, error) {
	if r.Comparison == nil {
		return nil, userErrorf("a diff query needs a comparison: {\"labelSelector\": ..., \"from\": ms, \"to\": ms}")
	}
	right := source.Selection{ProfileTypeID: r.Query.ProfileTypeID, LabelSelector: r.Comparison.Selector, Range: r.Comparison.Range, CallSite: r.Comparison.CallSite}
	left := r.selection()
	if r.Baseline != nil {
		left.Range = *r.Baseline
	}
	var (
		lt, rt *flame.Tree
		lc, rc *callSiteInfo
	)
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() (err error) { lt, lc, err = d.fullTreeAt(gctx, r, left); return err })
	g.Go(func() (err error) { rt, rc, err = d.fullTreeAt(gctx, r, right); return err })
	if err := g.Wait(); err != nil {
		return nil, err
	}
	diff := flame.NewDiff(lt, rt).Truncate(r.MaxNodes)
	f := dataframes.DiffFlamegraph(diff, dataframes.UnitOfProfileType(r.Query.ProfileTypeID))
	withCallSite(f, lc)
	withSideCallSite(f, "comparisonCallSite", rc)
	return data.Frames{f}, nil
}
