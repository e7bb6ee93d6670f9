// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Package filesource is a source.Source over opened profile files, held in
// memory: the datasource's whole pipeline (flamegraphs, label breakdowns,
// "by (label)" virtual frames, diffs, export) then works on files as on a
// profile server. Each file is a series labelled service_name=<file name>
// plus its samples' pprof labels (names made series-label names as
// Pyroscope does). Files have no time range: every call sees all of them,
// and a series is one point at the start of the asked range. Several files
// of one profile type merge as pprof merges them (profile.Merge).
package filesource

import (
	"context"
	"fmt"
	"slices"
	"sort"

	"github.com/google/pprof/profile"
	"github.com/prometheus/prometheus/model/labels"

	"github.com/emberscope/emberscope/pkg/datasource/query"
	"github.com/emberscope/emberscope/pkg/datasource/source"
	"github.com/emberscope/emberscope/pkg/profile/fileformat"
	"github.com/emberscope/emberscope/pkg/profile/flame"
	"github.com/emberscope/emberscope/pkg/profile/model"
	"github.com/emberscope/emberscope/pkg/profile/pprofconv"
)

// Source answers from files.
type Source struct {
	files []*file
}

type file struct {
	name string
	p    *profile.Profile
	// types are the profile types of p's sample types, by index.
	types []model.ProfileType
	// labels are each sample's series labels, by sample index.
	labels []map[string]string
}

var _ source.Source = (*Source)(nil)

// New returns a source over files, which it does not change.
func New(files ...*fileformat.File) *Source {
	s := &Source{}
	for _, f := range files {
		s.files = append(s.files, newFile(f))
	}
	return s
}

func newFile(f *fileformat.File) *file {
	naming := pprofconv.Naming{Fallback: string(f.Format)}
	out := &file{name: f.Name, p: f.Profile}
	for i := range f.Profile.SampleType {
		out.types = append(out.types, naming.TypeOf(f.Profile, i))
	}
	out.labels = make([]map[string]string, len(f.Profile.Sample))
	for i, s := range f.Profile.Sample {
		ls := map[string]string{model.LabelNameServiceName: f.Name}
		for k, vs := range s.Label {
			if n, err := pprofconv.SanitizeLabelName(k); err == nil && len(vs) > 0 && n != model.LabelNameServiceName {
				ls[n] = vs[0]
			}
		}
		out.labels[i] = ls
	}
	return out
}

// Files names the files, in order.
func (s *Source) Files() []string {
	out := make([]string, len(s.files))
	for i, f := range s.files {
		out[i] = f.name
	}
	return out
}

// ProfileTypes returns the profile types of every file's sample types.
func (s *Source) ProfileTypes(ctx context.Context, _ source.TimeRange) ([]model.ProfileType, error) {
	seen := map[string]bool{}
	var out []model.ProfileType
	for _, f := range s.files {
		for _, t := range f.types {
			if !seen[t.String()] {
				seen[t.String()] = true
				out = append(out, t)
			}
		}
	}
	slices.SortFunc(out, func(a, b model.ProfileType) int { return compare(a.String(), b.String()) })
	return out, nil
}

func compare(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// selector is a parsed label selector, plus the profile type matchers.
type selector []*labels.Matcher

func parseSelector(sel string) (selector, error) {
	if sel == "" {
		return nil, nil
	}
	ms, err := query.ParseSelector(sel)
	if err != nil {
		return nil, &model.Error{Kind: model.KindBadRequest, Msg: fmt.Sprintf("label selector: %v", err), Err: err}
	}
	return ms, nil
}

// matches tells whether sample si of f, of profile type t, is selected.
func (sel selector) matches(f *file, si int, t model.ProfileType) bool {
	for _, m := range sel {
		var v string
		switch m.Name {
		case model.LabelNameProfileType:
			v = t.String()
		case model.LabelNameProfileName:
			v = t.Name
		default:
			v = f.labels[si][m.Name]
		}
		if !m.Matches(v) {
			return false
		}
	}
	return true
}

// typeIndex is the index of f's sample type of profile type id, or -1.
func (f *file) typeIndex(id string) int {
	for i, t := range f.types {
		if t.String() == id {
			return i
		}
	}
	return -1
}

// LabelNames returns the label names of the samples any matcher set selects.
func (s *Source) LabelNames(ctx context.Context, r source.LabelsRequest) ([]string, error) {
	names := map[string]bool{}
	err := s.eachMatching(r.Matchers, func(f *file, si int) {
		for k := range f.labels[si] {
			names[k] = true
		}
	})
	if err != nil {
		return nil, err
	}
	return sortedKeys(names), nil
}

// LabelValues returns the values of label name among the selected samples.
func (s *Source) LabelValues(ctx context.Context, name string, r source.LabelsRequest) ([]string, error) {
	values := map[string]bool{}
	err := s.eachMatching(r.Matchers, func(f *file, si int) {
		if v, ok := f.labels[si][name]; ok {
			values[v] = true
		}
	})
	if err != nil {
		return nil, err
	}
	return sortedKeys(values), nil
}

// eachMatching calls fn for every sample of every file that one of the
// selectors (or, with none, any) selects under one of the file's types.
func (s *Source) eachMatching(matchers []string, fn func(f *file, si int)) error {
	if len(matchers) == 0 {
		matchers = []string{""}
	}
	sels := make([]selector, len(matchers))
	for i, m := range matchers {
		var err error
		if sels[i], err = parseSelector(m); err != nil {
			return err
		}
	}
	for _, f := range s.files {
		for si := range f.p.Sample {
		next:
			for _, sel := range sels {
				for _, t := range f.types {
					if sel.matches(f, si, t) {
						fn(f, si)
						break next
					}
				}
			}
		}
	}
	return nil
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// MergeProfile returns the selected samples of every file of the profile
// type, one sample type, merged as pprof merges profiles.
func (s *Source) MergeProfile(ctx context.Context, r source.StacksRequest) (*profile.Profile, error) {
	sel, err := parseSelector(r.LabelSelector)
	if err != nil {
		return nil, err
	}
	var parts []*profile.Profile
	for _, f := range s.files {
		ti := f.typeIndex(r.ProfileTypeID)
		if ti < 0 {
			continue
		}
		parts = append(parts, f.selected(sel, ti))
	}
	if len(parts) == 0 {
		t, err := model.ParseProfileType(r.ProfileTypeID)
		if err != nil {
			return nil, &model.Error{Kind: model.KindBadRequest, Msg: err.Error(), Err: err}
		}
		return &profile.Profile{SampleType: []*profile.ValueType{{Type: t.SampleType, Unit: t.SampleUnit}}}, nil
	}
	if len(parts) == 1 {
		return parts[0], nil
	}
	p, err := profile.Merge(parts)
	if err != nil {
		return nil, &model.Error{Kind: model.KindBadRequest, Msg: fmt.Sprintf("the files of %s cannot be merged: %v", r.ProfileTypeID, err), Err: err}
	}
	return p, nil
}

// selected is f reduced to sample type ti and the samples sel selects; its
// locations, functions and mappings are shared with f.
func (f *file) selected(sel selector, ti int) *profile.Profile {
	src := f.p
	p := &profile.Profile{
		SampleType: []*profile.ValueType{src.SampleType[ti]},
		Mapping:    src.Mapping, Location: src.Location, Function: src.Function,
		Comments: src.Comments, DropFrames: src.DropFrames, KeepFrames: src.KeepFrames,
		TimeNanos: src.TimeNanos, DurationNanos: src.DurationNanos, PeriodType: src.PeriodType, Period: src.Period,
	}
	for si, s := range f.p.Sample {
		if !sel.matches(f, si, f.types[ti]) {
			continue
		}
		c := *s
		c.Value = []int64{s.Value[ti]}
		p.Sample = append(p.Sample, &c)
	}
	return p
}

// MergeStacks returns the call tree of the selected samples.
func (s *Source) MergeStacks(ctx context.Context, r source.StacksRequest) (*flame.Tree, error) {
	p, err := s.MergeProfile(ctx, r)
	if err != nil {
		return nil, err
	}
	t, err := pprofconv.GranularTree(p, 0, model.GranularityFunctions)
	if err != nil {
		return nil, &model.Error{Kind: model.KindBadRequest, Msg: fmt.Sprintf("the files of %s cannot be read: %v", r.ProfileTypeID, err), Err: err}
	}
	if r.MaxNodes > 0 {
		t = flame.Truncate(t, int(r.MaxNodes))
	}
	return t, nil
}

// Series returns, per combination of the GroupBy labels' values, the total
// of the selected samples as one point at the start of the range.
func (s *Source) Series(ctx context.Context, r source.SeriesRequest) ([]source.Series, error) {
	sel, err := parseSelector(r.LabelSelector)
	if err != nil {
		return nil, err
	}
	type group struct {
		labels model.Labels
		total  int64
	}
	groups := map[string]*group{}
	for _, f := range s.files {
		ti := f.typeIndex(r.ProfileTypeID)
		if ti < 0 {
			continue
		}
		for si, smp := range f.p.Sample {
			if !sel.matches(f, si, f.types[ti]) {
				continue
			}
			var ls model.Labels
			for _, n := range r.GroupBy {
				if v, ok := f.labels[si][n]; ok {
					ls = append(ls, model.Label{Name: n, Value: v})
				}
			}
			k := ls.Key()
			g := groups[k]
			if g == nil {
				g = &group{labels: ls}
				groups[k] = g
			}
			g.total += smp.Value[ti]
		}
	}
	out := make([]source.Series, 0, len(groups))
	for _, g := range groups {
		out = append(out, source.Series{Labels: g.labels, Points: []source.Point{{Time: r.Range.From, Value: float64(g.total)}}})
	}
	slices.SortFunc(out, func(a, b source.Series) int { return model.CompareLabels(a.Labels, b.Labels) })
	return out, nil
}

// DefaultProfileType is the profile type pprof shows first of the first
// file: its default sample type, else its last one.
func (s *Source) DefaultProfileType() string {
	if len(s.files) == 0 || len(s.files[0].types) == 0 {
		return ""
	}
	f := s.files[0]
	for i, st := range f.p.SampleType {
		if st.Type == f.p.DefaultSampleType {
			return f.types[i].String()
		}
	}
	return f.types[len(f.types)-1].String()
}
