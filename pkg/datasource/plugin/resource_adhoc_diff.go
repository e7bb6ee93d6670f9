// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/grafana/grafana-plugin-sdk-go/backend"
	"github.com/grafana/grafana-plugin-sdk-go/data"

	"github.com/emberscope/emberscope/pkg/datasource/dataframes"
	"github.com/emberscope/emberscope/pkg/profile/flame"
	"github.com/emberscope/emberscope/pkg/profile/model"
	"github.com/emberscope/emberscope/pkg/profile/pprofconv"
)

// adhocDiffRequest compares a baseline (left) with a comparison (right)
// under one query, as pprof's -diff_base (Mode "diff_base", the default: a
// diff frame, as the Diff query returns) or -base (Mode "base": the
// comparison minus the baseline as one flamegraph); Normalize scales the
// comparison to the baseline's total first, as pprof's -normalize. A side
// is open files (LeftIDs, RightIDs) or a live query of the datasource
// (LeftLive, RightLive), merged into a pprof through its backend.
type adhocDiffRequest struct {
	LeftIDs   []string        `json:"leftIds"`
	RightIDs  []string        `json:"rightIds"`
	LeftLive  *adhocLive      `json:"leftLive"`
	RightLive *adhocLive      `json:"rightLive"`
	Query     json.RawMessage `json:"query"`
	Mode      string          `json:"mode"`
	Normalize bool            `json:"normalize"`
}

// adhocComparison is a diff request resolved: its query and both sides,
// the comparison already scaled when the request normalizes.
type adhocComparison struct {
	q           *request
	left, right *adhocSide
	mode        string
}

// resolveDiff checks a diff request and resolves its sides.
func (d *Datasource) resolveDiff(ctx context.Context, req adhocDiffRequest) (*adhocComparison, error) {
	if req.Mode == "" {
		req.Mode = "diff_base"
	}
	if req.Mode != "diff_base" && req.Mode != "base" {
		return nil, userErrorf("mode: %q is not diff_base or base", req.Mode)
	}
	now := d.now()
	q, err := parseRequest(backend.DataQuery{RefID: "A", QueryType: QueryTypeDiff, JSON: req.Query, MaxDataPoints: 1000, Interval: time.Minute,
		TimeRange: backend.TimeRange{From: now.Add(-time.Hour), To: now}}, d.settings.MinStep)
	if err != nil {
		return nil, err
	}
	left, err := d.adhocSideOf(ctx, "baseline", req.LeftIDs, req.LeftLive, q)
	if err != nil {
		return nil, err
	}
	right, err := d.adhocSideOf(ctx, "comparison", req.RightIDs, req.RightLive, q)
	if err != nil {
		return nil, err
	}
	if req.Normalize {
		if right, err = normalizeSides(ctx, left, right); err != nil {
			return nil, err
		}
	}
	return &adhocComparison{q: q, left: left, right: right, mode: req.Mode}, nil
}

// adhocDiff answers POST adhoc/diff (Pyroscope's Diff, with frames).
func (d *Datasource) adhocDiff(r *http.Request) (any, error) {
	var req adhocDiffRequest
	if err := readJSON(r, &req); err != nil {
		return nil, err
	}
	c, err := d.resolveDiff(r.Context(), req)
	if err != nil {
		return nil, err
	}
	q := c.q
	var f *data.Frame
	unit := dataframes.UnitOfProfileType(q.Query.ProfileTypeID)
	if c.mode == "base" {
		t, err := d.baseTree(r.Context(), c.left, c.right, q)
		if err != nil {
			return nil, err
		}
		f = dataframes.Flamegraph(t, unit)
	} else {
		lt, err := d.sideTree(r.Context(), c.left)
		if err != nil {
			return nil, err
		}
		rt, err := d.sideTree(r.Context(), c.right)
		if err != nil {
			return nil, err
		}
		f = dataframes.DiffFlamegraph(flame.NewDiff(lt, rt).Truncate(q.MaxNodes), unit)
	}
	f.RefID = "A"
	ids := []string{}
	seen := map[string]bool{}
	for _, s := range []*adhocSide{c.left, c.right} {
		types, _ := s.src.ProfileTypes(r.Context(), q.Range)
		for _, t := range types {
			if !seen[t.String()] {
				seen[t.String()] = true
				ids = append(ids, t.String())
			}
		}
	}
	return map[string]any{"profileTypes": ids, "frames": []*data.Frame{f}}, nil
}

// baseTree is the comparison minus the baseline, as pprof's -base: the
// baseline's samples negated and merged into the comparison's.
func (d *Datasource) baseTree(ctx context.Context, left, right *adhocSide, q *request) (*flame.Tree, error) {
	p, err := diffProfile(ctx, left, right, false)
	if err != nil {
		return nil, err
	}
	t, err := pprofconv.GranularTree(p, 0, model.GranularityFunctions)
	if err != nil {
		return nil, userErrorf("%v", err)
	}
	if t, err = applyOps(t, q.Query.Ops); err != nil {
		return nil, err
	}
	return flame.Truncate(t, q.MaxNodes), nil
}
