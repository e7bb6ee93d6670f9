// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"context"

	"github.com/grafana/grafana-plugin-sdk-go/data"

	"github.com/emberscope/emberscope/pkg/datasource/dataframes"
	"github.com/emberscope/emberscope/pkg/datasource/labelframes"
)

// withCallSite tells, on a focused query's frame, its call site, who
// selected the call site's samples and the whole graph's total (meta
// custom.callSite), with a notice saying it in words.
func withCallSite(f *data.Frame, cs *callSiteInfo) {
	withSideCallSite(f, "callSite", cs)
}

// withSideCallSite is withCallSite under meta custom key (a diff's right
// side is "comparisonCallSite").
func withSideCallSite(f *data.Frame, key string, cs *callSiteInfo) {
	if cs == nil {
		return
	}
	if f.Meta == nil {
		f.Meta = &data.FrameMeta{}
	}
	custom, _ := f.Meta.Custom.(map[string]any)
	if custom == nil {
		custom = map[string]any{}
	}
	custom[key] = cs
	f.Meta.Custom = custom
	f.AppendNotices(data.Notice{Severity: data.NoticeSeverityInfo, Text: cs.notice()})
}

// queryProfile answers a "profile" query with one flamegraph frame.
func (d *Datasource) queryProfile(ctx context.Context, r *request) (data.Frames, error) {
	if r.Sandwich != "" {
		return d.querySandwich(ctx, r)
	}
	ctx, notices := labelframes.WithNotices(ctx)
	ctx, whole := withWholeCounter(ctx)
	t, cs, err := d.tree(ctx, r)
	if err != nil {
		return nil, err
	}
	f := dataframes.Flamegraph(t, dataframes.UnitOfProfileType(r.Query.ProfileTypeID))
	withCallSite(f, cs)
	withSampleFilterInfo(f, filterInfoOf(r.Query, whole.Load()))
	for _, n := range notices.List() {
		f.AppendNotices(data.Notice{Severity: data.NoticeSeverityWarning, Text: n})
	}
	return data.Frames{f}, nil
}
