// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"context"

	"github.com/emberscope/emberscope/pkg/datasource/labelframes"
	"github.com/emberscope/emberscope/pkg/datasource/query"
	"github.com/emberscope/emberscope/pkg/datasource/source"
	"github.com/emberscope/emberscope/pkg/profile/flame"
)

// serverNodeBudget is the node budget asked of the server. When transforms
// follow, the server is asked for more so that focus/drop/reverse work on a
// fuller tree before our own truncation; the API refuses more than 1,048,576.
func serverNodeBudget(r *request) int64 {
	for _, op := range r.Query.Ops {
		if _, ok := op.(query.FramesFromLabel); !ok {
			return int64(min(r.MaxNodes*8, 1<<20))
		}
	}
	return int64(r.MaxNodes)
}

// tree builds the query's flamegraph tree: the merged stacks of its selection
// (with virtual base frames when the query asks for them), then its Ops in
// order, then truncation to maxNodes. A focused query's tree is its call
// site's, truncated only when the call site's subtree itself is larger.
func (d *Datasource) tree(ctx context.Context, r *request) (*flame.Tree, *callSiteInfo, error) {
	t, cs, err := d.fullTreeAt(ctx, r, r.selection())
	if err != nil {
		return nil, nil, err
	}
	return flame.Truncate(t, r.MaxNodes), cs, nil
}

// fullTree is the tree of sel through the query's pipeline, not truncated.
func (d *Datasource) fullTree(ctx context.Context, r *request, sel source.Selection) (*flame.Tree, error) {
	t, _, err := d.fullTreeAt(ctx, r, sel)
	return t, err
}

// fullTreeAt is fullTree, and when sel names a call site, how its samples
// were selected and the whole graph's total.
func (d *Datasource) fullTreeAt(ctx context.Context, r *request, sel source.Selection) (*flame.Tree, *callSiteInfo, error) {
	src := granularSource(withSampleFilters(d.src, r.Query, r.Granularity, wholeCounter(ctx)), r.Granularity)
	if r.Sandwich != "" {
		// a sandwich is merged from every sample: the tree is built from the
		// range's merged profile, not cut at maxNodes
		src = &wholeProfile{Source: src, g: r.Granularity}
	}
	var plan *callSitePlan
	whole := sel
	if len(sel.CallSite) > 0 {
		plan = planCallSite(d.src, r, sel.CallSite)
		sel.CallSite = nil
		var err error
		if sel, err = plan.narrowSelection(sel); err != nil {
			return nil, nil, err
		}
		src = plan.source(src, r.Granularity)
	}
	req := source.StacksRequest{Selection: sel, MaxNodes: serverNodeBudget(r)}
	var (
		t   *flame.Tree
		err error
	)
	if labels, sep := r.Query.VirtualLabels(); len(labels) > 0 {
		t, err = d.virtualTree(ctx, src, req, labels, sep, r.Limit)
	} else {
		t, err = src.MergeStacks(ctx, req)
	}
	if err != nil {
		return nil, nil, err
	}
	if t.Total() == 0 {
		if err := d.checkProfileType(ctx, r); err != nil {
			return nil, nil, err
		}
	}
	var info *callSiteInfo
	if plan != nil {
		info = &callSiteInfo{Path: plan.path, SelectedBy: selectedByDatasource}
		if plan.server {
			info.SelectedBy = selectedByServer
		}
		if plan.wholeInTree(r) {
			// the datasource cuts the call site from the range's whole merge:
			// its total is the whole graph's, with no series to ask for
			info.WholeTotal = t.Total()
		} else if info.WholeTotal, err = d.wholeTotal(ctx, whole); err != nil {
			return nil, nil, err
		}
		t = flame.CallSite(t, plan.path)
	}
	t, err = applyOps(t, r.Query.Ops)
	return t, info, err
}

// applyOps applies the query's pipeline to the tree, innermost first
// (frames_from_label was applied when the tree was built); an operation with
// no tree transform is the user's error.
func applyOps(t *flame.Tree, ops []query.Op) (*flame.Tree, error) {
	out, err := labelframes.Apply(t, ops)
	if err != nil {
		return nil, userErrorf("%v", err)
	}
	return out, nil
}
