// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/google/pprof/profile"
	"github.com/grafana/grafana-plugin-sdk-go/backend"
	"github.com/grafana/grafana-plugin-sdk-go/data"

	"github.com/emberscope/emberscope/pkg/datasource/dataframes"
	"github.com/emberscope/emberscope/pkg/datasource/source/filesource"
	"github.com/emberscope/emberscope/pkg/profile/fileformat"
	"github.com/emberscope/emberscope/pkg/profile/flame"
	"github.com/emberscope/emberscope/pkg/profile/model"
	"github.com/emberscope/emberscope/pkg/profile/pprofconv"
)

// adhocDiffRequest compares baseline files (left) with comparison files
// (right) under one query, as pprof's -diff_base (Mode "diff_base", the
// default: a diff frame, as the Diff query returns) or -base (Mode "base":
// the comparison minus the baseline as one flamegraph); Normalize scales
// the baseline to the comparison's total first, as pprof's -normalize.
type adhocDiffRequest struct {
	LeftIDs   []string        `json:"leftIds"`
	RightIDs  []string        `json:"rightIds"`
	Query     json.RawMessage `json:"query"`
	Mode      string          `json:"mode"`
	Normalize bool            `json:"normalize"`
}

// adhocDiff answers POST adhoc/diff (Pyroscope's Diff, with frames).
func (d *Datasource) adhocDiff(r *http.Request) (any, error) {
	var req adhocDiffRequest
	if err := readJSON(r, &req); err != nil {
		return nil, err
	}
	if req.Mode == "" {
		req.Mode = "diff_base"
	}
	if req.Mode != "diff_base" && req.Mode != "base" {
		return nil, userErrorf("mode: %q is not diff_base or base", req.Mode)
	}
	left, err := adhocEntries(r.Context(), req.LeftIDs)
	if err != nil {
		return nil, userErrorf("baseline: %v", err)
	}
	right, err := adhocEntries(r.Context(), req.RightIDs)
	if err != nil {
		return nil, userErrorf("comparison: %v", err)
	}
	now := d.now()
	q, err := parseRequest(backend.DataQuery{RefID: "A", QueryType: QueryTypeDiff, JSON: req.Query, MaxDataPoints: 1000, Interval: time.Minute,
		TimeRange: backend.TimeRange{From: now.Add(-time.Hour), To: now}}, d.settings.MinStep)
	if err != nil {
		return nil, err
	}
	lsrc, rsrc := filesource.New(filesOf(left)...), filesource.New(filesOf(right)...)
	if req.Normalize {
		if rsrc, err = normalized(filesOf(left), filesOf(right)); err != nil {
			return nil, err
		}
	}
	var f *data.Frame
	unit := dataframes.UnitOfProfileType(q.Query.ProfileTypeID)
	if req.Mode == "base" {
		t, err := d.baseTree(r.Context(), lsrc, rsrc, q)
		if err != nil {
			return nil, err
		}
		f = dataframes.Flamegraph(t, unit)
	} else {
		lt, _, err := d.overFiles(lsrc).fullTreeAt(r.Context(), q, q.selection())
		if err != nil {
			return nil, userErrorf("baseline: %v", err)
		}
		rt, _, err := d.overFiles(rsrc).fullTreeAt(r.Context(), q, q.selection())
		if err != nil {
			return nil, userErrorf("comparison: %v", err)
		}
		f = dataframes.DiffFlamegraph(flame.NewDiff(lt, rt).Truncate(q.MaxNodes), unit)
	}
	f.RefID = "A"
	types, _ := lsrc.ProfileTypes(r.Context(), q.Range)
	rtypes, _ := rsrc.ProfileTypes(r.Context(), q.Range)
	ids := []string{}
	seen := map[string]bool{}
	for _, t := range append(types, rtypes...) {
		if !seen[t.String()] {
			seen[t.String()] = true
			ids = append(ids, t.String())
		}
	}
	return map[string]any{"profileTypes": ids, "frames": []*data.Frame{f}}, nil
}

// normalized returns the comparison files merged and scaled, per sample
// type, to the baseline's totals: pprof's -normalize (profile.Normalize).
func normalized(left, right []*fileformat.File) (*filesource.Source, error) {
	// pprof merges several files of a side (one is left as it is), then
	// normalizes: the rounding of each scaled sample is pprof's.
	merge := func(side string, fs []*fileformat.File) (*profile.Profile, error) {
		if len(fs) == 1 {
			return fs[0].Profile.Copy(), nil
		}
		ps := make([]*profile.Profile, len(fs))
		for i, f := range fs {
			ps[i] = f.Profile
		}
		p, err := profile.Merge(ps)
		if err != nil {
			return nil, userErrorf("normalize: the %s files cannot be merged: %v", side, err)
		}
		return p, nil
	}
	lp, err := merge("baseline", left)
	if err != nil {
		return nil, err
	}
	rp, err := merge("comparison", right)
	if err != nil {
		return nil, err
	}
	if err := rp.Normalize(lp); err != nil {
		return nil, userErrorf("normalize: the comparison and the baseline hold different sample types: %v", err)
	}
	f := *right[0]
	f.Profile = rp
	return filesource.New(&f), nil
}

// baseTree is the comparison minus the baseline, as pprof's -base: the
// baseline's samples negated and merged into the comparison's.
func (d *Datasource) baseTree(ctx context.Context, lsrc, rsrc *filesource.Source, q *request) (*flame.Tree, error) {
	lp, err := lsrc.MergeProfile(ctx, stacksOf(q.selection()))
	if err != nil {
		return nil, err
	}
	rp, err := rsrc.MergeProfile(ctx, stacksOf(q.selection()))
	if err != nil {
		return nil, err
	}
	neg := lp.Copy()
	neg.Scale(-1)
	p, err := profile.Merge([]*profile.Profile{rp, neg})
	if err != nil {
		return nil, userErrorf("the baseline cannot be subtracted from the comparison: %v", err)
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
