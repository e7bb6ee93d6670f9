// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"context"
	"fmt"

	"github.com/grafana/grafana-plugin-sdk-go/data"

	"github.com/emberscope/emberscope/pkg/datasource/dataframes"
	"github.com/emberscope/emberscope/pkg/datasource/sandwich"
)

// Sandwich halves, as their frames' meta custom.sandwich.half names them.
const (
	sandwichCallers = "callers"
	sandwichCallees = "callees"
)

// sandwichInfo is a sandwich frame's meta custom.sandwich: which function and
// half it is, the function's flat and cum and call sites over the whole
// graph, and whether the half was cut at maxNodes.
type sandwichInfo struct {
	Function string `json:"function"`
	Half     string `json:"half"`
	Self     int64  `json:"self"`
	Total    int64  `json:"total"`
	Sites    int    `json:"sites"`
	Cut      bool   `json:"cut"`
}

// maxSandwichName bounds the function name a sandwich is asked for.
const maxSandwichName = 4096

// parseSandwich checks a profile query's sandwich function: a name, asked of
// the whole graph (not with a call site).
func parseSandwich(name string, callSite []string) (string, error) {
	if name == "" {
		return "", nil
	}
	if len(name) > maxSandwichName {
		return "", userErrorf("sandwich: a function name of %d bytes, more than %d", len(name), maxSandwichName)
	}
	if len(callSite) > 0 {
		return "", userErrorf("sandwich: a sandwich is merged over the whole graph; leave callSite empty")
	}
	return name, nil
}

// querySandwich answers a profile query with a sandwich function: the
// function's callers and callees merged over every call site of the range's
// full-resolution merge (the samples' profile, not the tree cut at
// maxNodes), through the query's pipeline, each half then cut at maxNodes
// on its own. Two flamegraph frames, callers then callees, each with the
// function at its root.
func (d *Datasource) querySandwich(ctx context.Context, r *request) (data.Frames, error) {
	t, err := d.fullTree(ctx, r, r.selection())
	if err != nil {
		return nil, err
	}
	s := sandwich.Of(t, r.Sandwich)
	if s.Sites == 0 {
		return nil, userErrorf("sandwich: no stack of the range holds the function %q", r.Sandwich)
	}
	unit := dataframes.UnitOfProfileType(r.Query.ProfileTypeID)
	var frames data.Frames
	for _, half := range []struct {
		name string
		h    *sandwich.Half
	}{{sandwichCallers, s.Callers}, {sandwichCallees, s.Callees}} {
		rows := half.h.Truncate(r.MaxNodes).Rows()
		f := dataframes.NestedSet(rows.Level, rows.Value, rows.Self, rows.Label, unit)
		f.Name = "sandwich " + half.name
		f.Meta.Custom = map[string]any{"sandwich": sandwichInfo{
			Function: s.Function, Half: half.name, Self: s.Self, Total: s.Total, Sites: s.Sites, Cut: rows.Cut,
		}}
		if rows.Cut {
			f.AppendNotices(data.Notice{Severity: data.NoticeSeverityInfo, Text: fmt.Sprintf(
				"The %s of %s were merged at full resolution and then cut at maxNodes (%d).", half.name, s.Function, r.MaxNodes)})
		}
		frames = append(frames, f)
	}
	return frames, nil
}
