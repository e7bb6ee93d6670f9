// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package pyroscope

import (
	"context"
	"fmt"

	"connectrpc.com/connect"
	querierv1 "github.com/grafana/pyroscope/api/gen/proto/go/querier/v1"
	typesv1 "github.com/grafana/pyroscope/api/gen/proto/go/types/v1"

	"github.com/emberscope/emberscope/pkg/datasource/source"
	"github.com/emberscope/emberscope/pkg/profile/flame"
	"github.com/emberscope/emberscope/pkg/profile/model"
)

// MergeStacks asks the server for the merged stacks of a selection and
// converts its flamegraph answer into a tree. A selection with span ids is
// asked of SelectMergeSpanProfile, as Grafana's Pyroscope datasource asks it;
// profile ids go in SelectMergeStacktraces' profileIdSelector.
func (c *Client) MergeStacks(ctx context.Context, r source.StacksRequest) (*flame.Tree, error) {
	start, end := rangeMillis(r.Range)
	var maxNodes *int64
	if r.MaxNodes > 0 {
		maxNodes = &r.MaxNodes
	}
	var fg *querierv1.FlameGraph
	if len(r.SpanSelector) > 0 {
		if len(r.CallSite) > 0 {
			return nil, &model.Error{Kind: model.KindBadRequest, Msg: "a query cannot select both span ids and a call site: Pyroscope's span profile API has no stack trace selector"}
		}
		if len(r.ProfileIDs) > 0 {
			return nil, &model.Error{Kind: model.KindBadRequest, Msg: "a query cannot select both span ids and profile ids: Pyroscope's span profile API has no profile id selector"}
		}
		//lint:ignore SA1019 Grafana's Pyroscope datasource asks span profiles with this RPC, which every Pyroscope version serves
		resp, err := c.querier.SelectMergeSpanProfile(ctx, connect.NewRequest(&querierv1.SelectMergeSpanProfileRequest{
			ProfileTypeID: r.ProfileTypeID,
			LabelSelector: selectorOrAll(r.LabelSelector),
			SpanSelector:  r.SpanSelector,
			Start:         start,
			End:           end,
			MaxNodes:      maxNodes,
		}))
		if err != nil {
			return nil, c.wrap("merge span profile", err)
		}
		fg = resp.Msg.Flamegraph
	} else {
		resp, err := c.querier.SelectMergeStacktraces(ctx, connect.NewRequest(&querierv1.SelectMergeStacktracesRequest{
			ProfileTypeID:      r.ProfileTypeID,
			LabelSelector:      selectorOrAll(r.LabelSelector),
			Start:              start,
			End:                end,
			MaxNodes:           maxNodes,
			Format:             querierv1.ProfileFormat_PROFILE_FORMAT_FLAMEGRAPH,
			ProfileIdSelector:  r.ProfileIDs,
			StackTraceSelector: stackTraceSelector(r.CallSite),
		}))
		if err != nil {
			return nil, c.wrap("merge stacks", err)
		}
		fg = resp.Msg.Flamegraph
	}
	t, err := TreeFromFlameGraph(fg)
	if err != nil {
		return nil, &model.Error{Kind: model.KindServer, Msg: fmt.Sprintf("profile server at %s sent a flamegraph that cannot be read: %v", c.url, err), Err: err}
	}
	return t, nil
}

// SelectsCallSite is true: Pyroscope (and the embedded store) select a call
// site themselves through StackTraceSelector.call_site.
func (c *Client) SelectsCallSite() bool { return true }

// stackTraceSelector is the selector of the samples whose root-side frames
// are callSite, matched by function name; nil when callSite is empty.
func stackTraceSelector(callSite []string) *typesv1.StackTraceSelector {
	if len(callSite) == 0 {
		return nil
	}
	sel := &typesv1.StackTraceSelector{CallSite: make([]*typesv1.Location, len(callSite))}
	for i, name := range callSite {
		sel.CallSite[i] = &typesv1.Location{Name: name}
	}
	return sel
}

func selectorOrAll(s string) string {
	if s == "" {
		return "{}"
	}
	return s
}

// TreeFromFlameGraph rebuilds the call tree of a Pyroscope flamegraph.
//
// Each level lists its nodes as 4-int tuples [x_delta, total, self, name]
// ordered by x, where a node's x is x_delta past the end of the previous node
// of the same level. A node's parent is the node one level up whose range
// [x, x+total) contains it. names[0] is the root's name ("total"); nodes
// named "other" (what the server's truncation removed) become KindOther.
func TreeFromFlameGraph(fg *querierv1.FlameGraph) (*flame.Tree, error) {
	t := flame.New()
	if fg == nil || len(fg.Levels) == 0 {
		return t, nil
	}
	names := make([]int32, len(fg.Names))
	for i, n := range fg.Names {
		names[i] = t.Intern(n)
	}
	type span struct {
		id         flame.NodeID
		start, end int64
	}
	var prev, cur []span
	for depth, level := range fg.Levels {
		v := level.GetValues()
		if len(v)%4 != 0 {
			return nil, fmt.Errorf("level %d has %d values, not a multiple of 4", depth, len(v))
		}
		cur = cur[:0]
		var x int64
		p := 0
		for i := 0; i < len(v); i += 4 {
			node := i / 4
			delta, total, self, name := v[i], v[i+1], v[i+2], v[i+3]
			if delta < 0 || total < 0 || self < 0 || self > total {
				return nil, fmt.Errorf("level %d node %d: bad values [%d %d %d %d]", depth, node, delta, total, self, name)
			}
			if name < 0 || int(name) >= len(names) {
				return nil, fmt.Errorf("level %d node %d: name index %d outside the %d names", depth, node, name, len(names))
			}
			x += delta
			start, end := x, x+total
			x = end
			var id flame.NodeID
			if depth == 0 {
				if node > 0 {
					return nil, fmt.Errorf("level 0 has %d nodes, want one root", len(v)/4)
				}
				id = flame.Root
			} else {
				// A zero-width node on a boundary stays with the node that ends there.
				for p < len(prev) && prev[p].end <= start && !(total == 0 && prev[p].end == start) {
					p++
				}
				if p == len(prev) || start < prev[p].start || end > prev[p].end {
					return nil, fmt.Errorf("level %d node %d: range [%d,%d) lies in no node of level %d", depth, node, start, end, depth-1)
				}
				kind := flame.KindFunction
				if fg.Names[name] == flame.OtherName {
					kind = flame.KindOther
				}
				id = t.Child(prev[p].id, names[name], kind)
			}
			if self > 0 {
				t.AddValue(id, self)
			}
			cur = append(cur, span{id: id, start: start, end: end})
		}
		prev, cur = cur, prev
	}
	return t, nil
}
