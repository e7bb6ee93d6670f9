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
// order, then truncation to maxNodes.
func (d *Datasource) tree(ctx context.Context, r *request) (*flame.Tree, error) {
	t, err := d.fullTree(ctx, r, r.selection())
	if err != nil {
		return nil, err
	}
	return flame.Truncate(t, r.MaxNodes), nil
}

// fullTree is the tree of sel through the query's pipeline, not truncated.
func (d *Datasource) fullTree(ctx context.Context, r *request, sel source.Selection) (*flame.Tree, error) {
	req := source.StacksRequest{Selection: sel, MaxNodes: serverNodeBudget(r)}
	var (
		t   *flame.Tree
		err error
	)
	src := granularSource(d.src, r.Granularity)
	if labels, sep := r.Query.VirtualLabels(); len(labels) > 0 {
		t, err = d.virtualTree(ctx, src, req, labels, sep, r.Limit)
	} else {
		t, err = src.MergeStacks(ctx, req)
	}
	if err != nil {
		return nil, err
	}
	if t.Total() == 0 {
		if err := d.checkProfileType(ctx, r); err != nil {
			return nil, err
		}
	}
	return applyOps(t, r.Query.Ops)
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
