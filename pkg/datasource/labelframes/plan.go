// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package labelframes

import (
	"context"
	"fmt"

	"github.com/prometheus/prometheus/model/labels"
	"golang.org/x/sync/errgroup"

	"github.com/emberscope/emberscope/pkg/datasource/query"
	"github.com/emberscope/emberscope/pkg/datasource/source"
	"github.com/emberscope/emberscope/pkg/profile/model"
)

// leaf is one planned MergeStacks call and the virtual path of its answer.
type leaf struct {
	selector string
	path     []step
}

// branch is a partial combination of label values during planning.
type branch struct {
	matchers []*labels.Matcher
	path     []step
	// values are the label values so far, "" for missing, keying totals.
	values []string
}

// with returns b narrowed by one more level.
func (b branch) with(s step, ms ...*labels.Matcher) branch {
	value := s.value
	if s.kind != stepValue {
		value = ""
	}
	return branch{
		matchers: append(append([]*labels.Matcher(nil), b.matchers...), ms...),
		path:     append(append([]step(nil), b.path...), s),
		values:   append(append([]string(nil), b.values...), value),
	}
}

// planner discovers label values level by level and plans the calls.
type planner struct {
	src    source.Source
	req    source.StacksRequest
	labels []string
	opts   Options
	// prefixTotals[i] holds the totals of value tuples of labels[:i+1],
	// fetched with one Series call the first time a limit applies.
	prefixTotals []map[string]int64
}

func (p *planner) plan(ctx context.Context, base []*labels.Matcher) ([]leaf, error) {
	frontier := []branch{{matchers: base}}
	var leaves []leaf
	for li, label := range p.labels {
		values, err := p.discover(ctx, label, frontier)
		if err != nil {
			return nil, err
		}
		var next []branch
		capped := 0
		for i, b := range frontier {
			kept, folded, err := p.limit(ctx, li, b, values[i])
			if err != nil {
				return nil, err
			}
			// Each branch left may still add a branch for the missing value
			// and a leaf for "other": keep room for them within MaxLeaves.
			room := p.opts.MaxLeaves - len(leaves) - len(next) - 2*(len(frontier)-i)
			if len(kept) > max(room, 0) {
				n := max(room, 0)
				capped += len(kept) - n
				folded = append(append([]string(nil), kept[n:]...), folded...)
				kept = kept[:n]
			}
			for _, v := range kept {
				next = append(next, b.with(step{label: label, value: v}, mustMatcher(labels.MatchEqual, label, v)))
			}
			if p.mayHaveMissing(li, b) {
				next = append(next, b.with(step{label: label, kind: stepMissing}, mustMatcher(labels.MatchEqual, label, "")))
			}
			if len(folded) > 0 {
				other := b.with(step{label: label, kind: stepOther},
					mustMatcher(labels.MatchNotEqual, label, ""),
					mustMatcher(labels.MatchNotRegexp, label, alternation(kept)))
				leaves = append(leaves, leaf{selector: query.FormatSelector(other.matchers), path: other.path})
			}
		}
		if capped > 0 {
			notify(ctx, "This query would need more than %d upstream calls for its virtual frames: %d values of label %q are folded into %q.", p.opts.MaxLeaves, capped, label, "other")
		}
		frontier = next
	}
	for _, b := range frontier {
		leaves = append(leaves, leaf{selector: query.FormatSelector(b.matchers), path: b.path})
	}
	return leaves, nil
}

// discover asks for the values of label under every branch, concurrently.
func (p *planner) discover(ctx context.Context, label string, frontier []branch) ([][]string, error) {
	values := make([][]string, len(frontier))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(p.opts.Concurrency)
	for i, b := range frontier {
		g.Go(func() error {
			ms := b.matchers
			if p.req.ProfileTypeID != "" {
				ms = append(append([]*labels.Matcher(nil), ms...), mustMatcher(labels.MatchEqual, model.LabelNameProfileType, p.req.ProfileTypeID))
			}
			vs, err := p.src.LabelValues(gctx, label, source.LabelsRequest{
				Matchers: []string{query.FormatSelector(ms)},
				Range:    p.req.Range,
			})
			if err != nil {
				return fmt.Errorf("virtual frames: values of label %q: %w", label, err)
			}
			values[i] = nonEmpty(vs)
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return values, nil
}

// limit splits the values of level li under b into those kept, largest total
// first, and those folded into "other".
func (p *planner) limit(ctx context.Context, li int, b branch, values []string) (kept, folded []string, err error) {
	if p.opts.Limit <= 0 || len(values) <= p.opts.Limit {
		return values, nil, nil
	}
	if err := p.fetchTotals(ctx); err != nil {
		return nil, nil, err
	}
	totals := p.prefixTotals[li]
	key := func(v string) string { return tupleKey(append(append([]string(nil), b.values...), v)) }
	ranked := rankByTotal(values, func(v string) int64 { return totals[key(v)] })
	return ranked[:p.opts.Limit], ranked[p.opts.Limit:], nil
}

// mayHaveMissing reports whether samples under b may lack label li: always,
// unless totals were fetched and say there are none.
func (p *planner) mayHaveMissing(li int, b branch) bool {
	if p.prefixTotals == nil {
		return true
	}
	missing := append(append([]string(nil), b.values...), "")
	return p.prefixTotals[li][tupleKey(missing)] != 0
}

// fetchTotals makes the one Series call grouped by every label.
func (p *planner) fetchTotals(ctx context.Context) error {
	if p.prefixTotals != nil {
		return nil
	}
	full, err := groupTotals(ctx, p.src, p.req.Selection, p.labels)
	if err != nil {
		return fmt.Errorf("virtual frames: %w", err)
	}
	p.prefixTotals = make([]map[string]int64, len(p.labels))
	for i := range p.prefixTotals {
		p.prefixTotals[i] = make(map[string]int64)
	}
	for k, v := range full {
		tuple, err := model.SplitKey(k)
		if err != nil {
			return fmt.Errorf("virtual frames: %w", err)
		}
		for i := range p.labels {
			p.prefixTotals[i][tupleKey(tuple[:i+1])] += v
		}
	}
	return nil
}

func mustMatcher(t labels.MatchType, name, value string) *labels.Matcher {
	m, err := labels.NewMatcher(t, name, value)
	if err != nil {
		// Only regexes can fail, and ours quote every value.
		panic(fmt.Sprintf("virtual: matcher %s%s%q: %v", name, t, value, err))
	}
	return m
}

func nonEmpty(vs []string) []string {
	out := make([]string, 0, len(vs))
	for _, v := range vs {
		if v != "" {
			out = append(out, v)
		}
	}
	return out
}
