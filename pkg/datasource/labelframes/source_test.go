// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package labelframes_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/pprof/profile"
	"github.com/prometheus/prometheus/model/labels"

	"github.com/emberscope/emberscope/pkg/datasource/query"
	"github.com/emberscope/emberscope/pkg/datasource/source"
	"github.com/emberscope/emberscope/pkg/profile/flame"
	"github.com/emberscope/emberscope/pkg/profile/flame/flametest"
	"github.com/emberscope/emberscope/pkg/profile/model"
)

const cpuType = "process_cpu:cpu:nanoseconds:cpu:nanoseconds"

// testSeries is one label set and its merged stacks.
type testSeries struct {
	labels map[string]string
	tree   *flame.Tree
}

// testSource is a source.Source over in-memory series, answering with
// Prometheus matcher semantics (a missing label reads as ""). It counts calls.
type testSource struct {
	series []testSeries

	mergeCalls, seriesCalls, valueCalls atomic.Int64
	inFlight, maxInFlight               atomic.Int64
	// delay, when set, makes each MergeStacks take that long.
	delay time.Duration
	// failOn makes MergeStacks fail for selectors containing it.
	failOn string
}

// newProfileSource turns a real pprof into series: one per set of sample
// labels, each also labelled service_name="checkout".
func newProfileSource(tb testing.TB, p *profile.Profile) *testSource {
	tb.Helper()
	idx := cpuIndex(tb, p)
	groups := map[string][]*profile.Sample{}
	sets := map[string]map[string]string{}
	for _, s := range p.Sample {
		ls := sampleLabels(s)
		k := fmt.Sprint(ls)
		groups[k] = append(groups[k], s)
		sets[k] = ls
	}
	src := &testSource{}
	for _, k := range slices.Sorted(maps.Keys(groups)) {
		t, err := flametest.FromProfile(&profile.Profile{SampleType: p.SampleType, Sample: groups[k]}, idx)
		if err != nil {
			tb.Fatal(err)
		}
		src.series = append(src.series, testSeries{labels: sets[k], tree: t})
	}
	return src
}

func cpuIndex(tb testing.TB, p *profile.Profile) int {
	for i, st := range p.SampleType {
		if st.Type == "cpu" {
			return i
		}
	}
	tb.Fatalf("profile has no cpu sample type: %v", p.SampleType)
	return -1
}

// sampleLabels are a sample's pprof labels plus the service name.
func sampleLabels(s *profile.Sample) map[string]string {
	ls := map[string]string{"service_name": "checkout"}
	for k, vs := range s.Label {
		if len(vs) > 0 {
			ls[k] = vs[0]
		}
	}
	return ls
}

func (s *testSource) matching(profileType, selector string) ([]testSeries, error) {
	if profileType != cpuType {
		return nil, nil
	}
	ms, err := query.ParseSelector(selector)
	if err != nil {
		return nil, err
	}
	var out []testSeries
	for _, ser := range s.series {
		if matchesAll(ms, ser.labels, profileType) {
			out = append(out, ser)
		}
	}
	return out, nil
}

func matchesAll(ms []*labels.Matcher, ls map[string]string, profileType string) bool {
	for _, m := range ms {
		v := ls[m.Name]
		if m.Name == "__profile_type__" {
			v = profileType
		}
		if !m.Matches(v) {
			return false
		}
	}
	return true
}

// scoped returns the series matched by any of the label request's selectors.
func (s *testSource) scoped(r source.LabelsRequest) ([]testSeries, error) {
	if len(r.Matchers) == 0 {
		return s.series, nil
	}
	var out []testSeries
	for _, ser := range s.series {
		for _, sel := range r.Matchers {
			ms, err := query.ParseSelector(sel)
			if err != nil {
				return nil, err
			}
			if matchesAll(ms, ser.labels, cpuType) {
				out = append(out, ser)
				break
			}
		}
	}
	return out, nil
}

func (s *testSource) ProfileTypes(context.Context, source.TimeRange) ([]model.ProfileType, error) {
	return []model.ProfileType{{Name: "process_cpu", SampleType: "cpu", SampleUnit: "nanoseconds", PeriodType: "cpu", PeriodUnit: "nanoseconds"}}, nil
}

func (s *testSource) LabelNames(_ context.Context, r source.LabelsRequest) ([]string, error) {
	ser, err := s.scoped(r)
	if err != nil {
		return nil, err
	}
	names := map[string]bool{}
	for _, x := range ser {
		for k := range x.labels {
			names[k] = true
		}
	}
	return slices.Sorted(maps.Keys(names)), nil
}

func (s *testSource) LabelValues(_ context.Context, name string, r source.LabelsRequest) ([]string, error) {
	s.valueCalls.Add(1)
	ser, err := s.scoped(r)
	if err != nil {
		return nil, err
	}
	values := map[string]bool{}
	for _, x := range ser {
		if v := x.labels[name]; v != "" {
			values[v] = true
		}
	}
	return slices.Sorted(maps.Keys(values)), nil
}

func (s *testSource) MergeStacks(ctx context.Context, r source.StacksRequest) (*flame.Tree, error) {
	s.mergeCalls.Add(1)
	n := s.inFlight.Add(1)
	defer s.inFlight.Add(-1)
	for {
		m := s.maxInFlight.Load()
		if n <= m || s.maxInFlight.CompareAndSwap(m, n) {
			break
		}
	}
	if s.failOn != "" && strings.Contains(r.LabelSelector, s.failOn) {
		return nil, errors.New("backend unavailable")
	}
	if s.delay > 0 {
		select {
		case <-time.After(s.delay):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	ser, err := s.matching(r.ProfileTypeID, r.LabelSelector)
	if err != nil {
		return nil, err
	}
	t := flame.New()
	for _, x := range ser {
		t.Merge(x.tree)
	}
	return t, nil
}

func (s *testSource) Series(_ context.Context, r source.SeriesRequest) ([]source.Series, error) {
	s.seriesCalls.Add(1)
	ser, err := s.matching(r.ProfileTypeID, r.LabelSelector)
	if err != nil {
		return nil, err
	}
	totals := map[string]float64{}
	groups := map[string]model.Labels{}
	for _, x := range ser {
		var ls model.Labels
		for _, g := range r.GroupBy {
			if v := x.labels[g]; v != "" {
				ls = append(ls, model.Label{Name: g, Value: v})
			}
		}
		k := fmt.Sprint(ls)
		totals[k] += float64(x.tree.Total())
		groups[k] = ls
	}
	var out []source.Series
	for _, k := range slices.Sorted(maps.Keys(groups)) {
		out = append(out, source.Series{Labels: groups[k], Points: []source.Point{{Time: r.Range.From, Value: totals[k]}}})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Points[0].Value > out[j].Points[0].Value })
	return out, nil
}

func (s *testSource) MergeProfile(context.Context, source.StacksRequest) (*profile.Profile, error) {
	return nil, errors.New("testSource: MergeProfile is not used by package labelframes")
}

var _ source.Source = (*testSource)(nil)

// testRange is the time range of every test request.
var testRange = source.TimeRange{From: time.Unix(1_700_000_000, 0), To: time.Unix(1_700_003_600, 0)}

func stacksRequest(selector string) source.StacksRequest {
	return source.StacksRequest{Selection: source.Selection{ProfileTypeID: cpuType, LabelSelector: selector, Range: testRange}}
}

// sumWhere sums the cpu values of the samples of p whose labels satisfy keep.
func sumWhere(tb testing.TB, p *profile.Profile, keep func(map[string]string) bool) int64 {
	return sumSamples(tb, p, func(s *profile.Sample) bool { return keep(sampleLabels(s)) })
}

// sumSamples sums the cpu values of the samples of p that satisfy keep.
func sumSamples(tb testing.TB, p *profile.Profile, keep func(*profile.Sample) bool) int64 {
	idx := cpuIndex(tb, p)
	var sum int64
	for _, s := range p.Sample {
		if keep(s) {
			sum += s.Value[idx]
		}
	}
	return sum
}

// inStack reports whether the function fn is a frame of s.
func inStack(s *profile.Sample, fn string) bool {
	return slices.ContainsFunc(s.Location, func(l *profile.Location) bool {
		return slices.ContainsFunc(l.Line, func(ln profile.Line) bool { return ln.Function != nil && ln.Function.Name == fn })
	})
}
