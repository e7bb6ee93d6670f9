// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"sync/atomic"

	"github.com/google/pprof/profile"
	"github.com/grafana/grafana-plugin-sdk-go/data"

	"github.com/emberscope/emberscope/pkg/datasource/query"
	"github.com/emberscope/emberscope/pkg/datasource/source"
	"github.com/emberscope/emberscope/pkg/profile/flame"
	"github.com/emberscope/emberscope/pkg/profile/model"
	"github.com/emberscope/emberscope/pkg/profile/pprofconv"
)

// sampleFilterInfo tells, on the frame's meta (custom.sampleFilters), what
// ignore and hide the query applied and the total before them, so that the
// panel can give percentages against the whole graph (pprof's default) or
// against what is shown (pprof's -relative_percentages).
type sampleFilterInfo struct {
	Ignore     []string `json:"ignore,omitempty"`
	Hide       []string `json:"hide,omitempty"`
	WholeTotal int64    `json:"wholeTotal"`
}

// sampleFilters applies a query's ignore and hide to every merged profile
// with google/pprof's own Profile.FilterSamplesByName, the function
// `pprof -ignore/-hide` runs, so a location matches by its functions' names,
// their file names or (ignore only) its mapping's file, exactly as in pprof.
// It needs the merged pprof, which every backend answers (Pyroscope's and
// our store's SelectMergeProfile, Parca's PPROF report); the tree is then
// built from the filtered samples at the query's granularity.
type sampleFilters struct {
	source.Source
	ignore, hide []*regexp.Regexp
	g            model.Granularity
	// before sums the merged profiles' totals before filtering.
	before *atomic.Int64
}

// withSampleFilters returns src filtering by the query's ignore and hide,
// or src itself when the query has neither.
func withSampleFilters(src source.Source, q *query.Query, g model.Granularity, before *atomic.Int64) source.Source {
	ignore, hide := q.SampleFilters()
	if len(ignore) == 0 && len(hide) == 0 {
		return src
	}
	if before == nil {
		before = new(atomic.Int64)
	}
	return &sampleFilters{Source: src, ignore: ignore, hide: hide, g: g, before: before}
}

// hasSampleFilters tells whether the query has ignore or hide.
func hasSampleFilters(q *query.Query) bool {
	ignore, hide := q.SampleFilters()
	return len(ignore) > 0 || len(hide) > 0
}

// MergeProfile answers the merged profile without the ignored samples and
// hidden frames.
func (s *sampleFilters) MergeProfile(ctx context.Context, r source.StacksRequest) (*profile.Profile, error) {
	p, err := s.Source.MergeProfile(ctx, r)
	if err != nil || len(p.Sample) == 0 {
		return p, err
	}
	idx, err := pprofconv.SampleIndexOf(p, r.ProfileTypeID)
	if err != nil {
		return nil, &model.Error{Kind: model.KindServer, Msg: fmt.Sprintf("ignore/hide: %v", err), Err: err}
	}
	var whole int64
	for _, smp := range p.Sample {
		if idx < len(smp.Value) {
			whole += smp.Value[idx]
		}
	}
	s.before.Add(whole)
	if len(s.hide) > 0 {
		// hiding rewrites the locations' lines: keep the source's profile intact
		p = p.Copy()
	}
	for _, re := range s.ignore {
		p.FilterSamplesByName(nil, re, nil, nil)
	}
	for _, re := range s.hide {
		p.FilterSamplesByName(nil, nil, re, nil)
	}
	return p, nil
}

// MergeStacks builds the tree of the filtered merged profile at the query's
// granularity; the server's node budget does not apply, as pprof filters
// the whole profile before it cuts.
func (s *sampleFilters) MergeStacks(ctx context.Context, r source.StacksRequest) (*flame.Tree, error) {
	r.MaxNodes = 0
	p, err := s.MergeProfile(ctx, r)
	if err != nil {
		return nil, err
	}
	return granularTreeOf(p, r.ProfileTypeID, s.g, "ignore/hide")
}

// notice says in words what was filtered.
func (i *sampleFilterInfo) notice() string {
	var parts []string
	if len(i.Ignore) > 0 {
		parts = append(parts, "ignoring samples through "+strings.Join(i.Ignore, ", "))
	}
	if len(i.Hide) > 0 {
		parts = append(parts, "hiding frames matching "+strings.Join(i.Hide, ", "))
	}
	return fmt.Sprintf("Filtered as pprof's -ignore/-hide (%s); the whole graph before filtering is %d.", strings.Join(parts, "; "), i.WholeTotal)
}

type wholeCounterKey struct{}

// withWholeCounter returns ctx carrying a counter of the merged profiles'
// totals before ignore and hide, which the sample filters of the query run
// under ctx add to.
func withWholeCounter(ctx context.Context) (context.Context, *atomic.Int64) {
	c := new(atomic.Int64)
	return context.WithValue(ctx, wholeCounterKey{}, c), c
}

// wholeCounter is ctx's counter, or nil.
func wholeCounter(ctx context.Context) *atomic.Int64 {
	c, _ := ctx.Value(wholeCounterKey{}).(*atomic.Int64)
	return c
}

// filterInfoOf is the meta of q's sample filters given the total before
// them, or nil when q has none.
func filterInfoOf(q *query.Query, whole int64) *sampleFilterInfo {
	ignore, hide := q.SampleFilters()
	if len(ignore) == 0 && len(hide) == 0 {
		return nil
	}
	info := &sampleFilterInfo{WholeTotal: whole}
	for _, re := range ignore {
		info.Ignore = append(info.Ignore, re.String())
	}
	for _, re := range hide {
		info.Hide = append(info.Hide, re.String())
	}
	return info
}

// withSampleFilterInfo tells, on a filtered query's frame, its ignore and
// hide and the whole total before them (meta custom.sampleFilters), with a
// notice saying it in words.
func withSampleFilterInfo(f *data.Frame, info *sampleFilterInfo) {
	if info == nil {
		return
	}
	if f.Meta == nil {
		f.Meta = &data.FrameMeta{}
	}
	custom, _ := f.Meta.Custom.(map[string]any)
	if custom == nil {
		custom = map[string]any{}
	}
	custom["sampleFilters"] = info
	f.Meta.Custom = custom
	f.AppendNotices(data.Notice{Severity: data.NoticeSeverityInfo, Text: info.notice()})
}
