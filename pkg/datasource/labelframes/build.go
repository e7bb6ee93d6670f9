// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package labelframes

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/emberscope/emberscope/pkg/datasource/query"
	"github.com/emberscope/emberscope/pkg/datasource/source"
	"github.com/emberscope/emberscope/pkg/profile/flame"
)

// DefaultConcurrency bounds the calls in flight when Options.Concurrency is 0.
const DefaultConcurrency = 8

// Options tune Build.
type Options struct {
	// Limit is the most values of a label that get frames of their own under
	// one parent, the largest by total; the rest fold into one "other" frame.
	// 0 keeps every value.
	Limit int
	// Concurrency bounds the source calls in flight; 0 means DefaultConcurrency.
	Concurrency int
	// MaxLeaves bounds the calls planned (values beyond fold into "other");
	// 0 means DefaultMaxLeaves.
	MaxLeaves int
	// MaxLabels bounds the labels used; 0 means DefaultMaxLabels.
	MaxLabels int
}

// Build returns the merged tree of req with virtual frames made from the
// values of labels at the base of every stack, the first label outermost.
// Each value of sep-separated parts becomes nested frames (sep "" keeps
// values whole). Samples without a label go under MissingName(label); values
// beyond opts.Limit fold into one "other" frame (of kind flame.KindOther)
// with no virtual frames below it. With no labels, Build is the plain query.
//
// It plans one MergeStacks call per combination of values (found with
// LabelValues, per parent value for nested labels), plus one per parent for
// the samples without the label and one for the folded values, and runs them
// concurrently within opts.Concurrency.
func Build(ctx context.Context, src source.Source, req source.StacksRequest, labelNames []string, sep string, opts Options) (*flame.Tree, error) {
	if len(labelNames) == 0 {
		return src.MergeStacks(ctx, req)
	}
	if err := checkLabels(labelNames); err != nil {
		return nil, err
	}
	if opts.Concurrency <= 0 {
		opts.Concurrency = DefaultConcurrency
	}
	if opts.MaxLeaves <= 0 {
		opts.MaxLeaves = DefaultMaxLeaves
	}
	if opts.MaxLabels <= 0 {
		opts.MaxLabels = DefaultMaxLabels
	}
	labelNames = capLabels(ctx, labelNames, opts.MaxLabels)
	base, err := query.ParseSelector(req.LabelSelector)
	if err != nil {
		return nil, fmt.Errorf("virtual frames: label selector %q: %w", req.LabelSelector, err)
	}
	p := &planner{src: src, req: req, labels: labelNames, opts: opts}
	leaves, err := p.plan(ctx, base)
	if err != nil {
		return nil, err
	}
	trees, err := mergeAll(ctx, src, req, leaves, opts.Concurrency)
	if err != nil {
		return nil, err
	}
	out := flame.New()
	for i, l := range leaves {
		if t := trees[i]; t != nil && t.Len() > 1 {
			out.Graft(nodeFor(out, l.path, sep), t)
		}
	}
	return out, nil
}

func checkLabels(names []string) error {
	seen := make(map[string]bool, len(names))
	for _, l := range names {
		if strings.TrimSpace(l) == "" {
			return errors.New("virtual frames: empty label name")
		}
		if seen[l] {
			return fmt.Errorf("virtual frames: label %q given twice", l)
		}
		seen[l] = true
	}
	return nil
}

// mergeAll runs one MergeStacks per leaf, at most limit at a time; the
// answers come back in the order of leaves.
func mergeAll(ctx context.Context, src source.Source, req source.StacksRequest, leaves []leaf, limit int) ([]*flame.Tree, error) {
	trees := make([]*flame.Tree, len(leaves))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(limit)
	for i, l := range leaves {
		g.Go(func() error {
			r := req
			r.LabelSelector = l.selector
			t, err := src.MergeStacks(gctx, r)
			if err != nil {
				return fmt.Errorf("virtual frames: stacks of %s: %w", l.selector, err)
			}
			trees[i] = t
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return trees, nil
}
