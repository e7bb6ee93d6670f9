// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package parca

import (
	"context"
	"fmt"
	"net/url"

	"github.com/google/pprof/profile"

	"github.com/emberscope/emberscope/pkg/datasource/source"
	"github.com/emberscope/emberscope/pkg/profile/flame"
	"github.com/emberscope/emberscope/pkg/profile/gopgo"
	"github.com/emberscope/emberscope/pkg/profile/model"
)

// Report types of /api/profiles/query.
const (
	reportFlamegraphTable = "REPORT_TYPE_FLAMEGRAPH_TABLE"
	reportPprof           = "REPORT_TYPE_PPROF"
)

// MergeStacks merges the selection's profiles into a call tree through
// /api/profiles/query (mode MERGE, report FLAMEGRAPH_TABLE). r.MaxNodes is
// not sent: Parca has no node budget, the tree comes back whole. No data
// (Parca's empty answer or its 404) gives an empty tree.
func (c *Client) MergeStacks(ctx context.Context, r source.StacksRequest) (*flame.Tree, error) {
	resp, err := c.merge(ctx, r.Selection, reportFlamegraphTable)
	if isNotFound(err) {
		return flame.New(), nil
	}
	if err != nil {
		return nil, err
	}
	return treeFromFlamegraph(resp.Flamegraph)
}

// MergeProfile merges the selection's profiles into one pprof through
// /api/profiles/query (mode MERGE, report PPROF). Parca's pprof holds only
// the queried sample type and no period type; the period type is filled in
// from the profile type ID. No data gives a profile without samples.
// Parca has no go_pgo selector: with r.GoPGO the merged pprof is cut here,
// as Pyroscope cuts it.
func (c *Client) MergeProfile(ctx context.Context, r source.StacksRequest) (*profile.Profile, error) {
	p, err := c.mergeProfile(ctx, r)
	if err != nil || r.GoPGO == nil {
		return p, err
	}
	return gopgo.Cut(p, *r.GoPGO)
}

func (c *Client) mergeProfile(ctx context.Context, r source.StacksRequest) (*profile.Profile, error) {
	resp, err := c.merge(ctx, r.Selection, reportPprof)
	if isNotFound(err) {
		return emptyProfile(r.ProfileTypeID), nil
	}
	if err != nil {
		return nil, err
	}
	if len(resp.Pprof) == 0 {
		return emptyProfile(r.ProfileTypeID), nil
	}
	p, err := profile.ParseData(resp.Pprof)
	if err != nil {
		return nil, fmt.Errorf("parca: the merged pprof of %s does not parse: %w", r.ProfileTypeID, err)
	}
	if p.PeriodType == nil {
		if t, err := model.ParseProfileType(r.ProfileTypeID); err == nil {
			p.PeriodType = &profile.ValueType{Type: t.PeriodType, Unit: t.PeriodUnit}
		}
	}
	return p, nil
}

// merge asks /api/profiles/query for one report of the merged selection.
func (c *Client) merge(ctx context.Context, sel source.Selection, report string) (*queryResponse, error) {
	if err := checkTraceSelectors(sel); err != nil {
		return nil, err
	}
	if err := checkRange(sel.Range); err != nil {
		return nil, err
	}
	query, err := c.query(ctx, sel)
	if err != nil {
		return nil, err
	}
	q := url.Values{}
	q.Set("mode", "MODE_MERGE")
	q.Set("merge.query", query)
	addRange(q, "merge.", sel.Range)
	q.Set("reportType", report)
	var resp queryResponse
	if err := c.get(ctx, "/api/profiles/query", q, &resp); err != nil {
		return nil, err
	}
	return &resp, nil
}

// emptyProfile is a profile of the given type without samples.
func emptyProfile(typeID string) *profile.Profile {
	p := &profile.Profile{}
	if t, err := model.ParseProfileType(typeID); err == nil {
		p.SampleType = []*profile.ValueType{{Type: t.SampleType, Unit: t.SampleUnit}}
		p.PeriodType = &profile.ValueType{Type: t.PeriodType, Unit: t.PeriodUnit}
	}
	return p
}
