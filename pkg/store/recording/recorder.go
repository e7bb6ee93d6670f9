// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Package recording evaluates recording rules at ingest. For each stored
// profile, every rule whose matchers match its series labels adds the
// profile's total (or, with a function filter, the values of the samples
// whose stack holds that function, each sample once) to the rule's series
// for its group_by labels. No stacks are held: a profile is reduced to a
// few numbers as it is stored. Sums are filed by arrival in aligned
// intervals and handed to a Sink once their interval has closed, so every
// series receives increasing timestamps.
package recording

import (
	"slices"
	"sync"
	"time"

	prom "github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/model/labels"

	"github.com/emberscope/emberscope/pkg/profile/pprofconv"
	"github.com/emberscope/emberscope/pkg/store/rules"
	"github.com/emberscope/emberscope/pkg/store/storage"
)

// InstanceLabel names the store on every recorded series, under the name
// Pyroscope's exporter uses, so that queries written for it work unchanged.
const InstanceLabel = "pyroscope_instance"

// Point is one recorded sample: an interval's sum for one series.
type Point struct {
	// Labels are __name__, the instance, the rule's external labels,
	// its group_by labels present on the profiles and profiles_rule_id.
	Labels labels.Labels
	// TimeMillis is the start of the interval the profiles arrived in.
	TimeMillis int64
	Value      float64
}

// Sink receives the points of each closed interval, per tenant. It must
// not block: ingest waits for nothing downstream.
type Sink interface {
	Record(tenant string, points []Point)
}

// Rules are the rules that apply to a tenant's profiles (rules.Repo).
type Rules interface {
	Rules(tenant string) []*rules.Compiled
}

// Options configure a Recorder.
type Options struct {
	Rules Rules
	Sink  Sink
	// Interval is the width of the aligned intervals (15s when zero).
	Interval time.Duration
	// Instance is the value of InstanceLabel ("" leaves it out).
	Instance string
	// Now is the clock (time.Now when nil); tests set it.
	Now func() time.Time
}

// Recorder sums matching profiles per rule, series and interval.
type Recorder struct {
	rules    Rules
	sink     Sink
	interval time.Duration
	instance string
	now      func() time.Time

	mu sync.Mutex
	// open maps an interval's start (unix ms) to its sums per tenant.
	open map[int64]map[string]*tenantSums
}

type tenantSums struct {
	series map[string]*Point // by labels' string form
}

// New returns a Recorder; call Flush (or Run) to hand closed intervals to
// the sink.
func New(o Options) *Recorder {
	if o.Interval <= 0 {
		o.Interval = 15 * time.Second
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return &Recorder{rules: o.Rules, sink: o.Sink, interval: o.Interval, instance: o.Instance, now: o.Now, open: map[int64]map[string]*tenantSums{}}
}

// Interval is the width of the recorder's intervals.
func (r *Recorder) Interval() time.Duration { return r.interval }

// Observe evaluates the tenant's rules against writes that were just
// stored, filing the sums in the current interval.
func (r *Recorder) Observe(tenant string, writes []storage.Write) {
	rs := r.rules.Rules(tenant)
	if len(rs) == 0 || len(writes) == 0 {
		return
	}
	start := r.now().Truncate(r.interval).UnixMilli()
	type contribution struct {
		ls    labels.Labels
		value float64
	}
	var adds []contribution
	filters := map[filterKey][]bool{}
	for i := range writes {
		w := &writes[i]
		for _, rule := range rs {
			if !rule.Matches(w.Labels.Get) {
				continue
			}
			v := w.Series.Total
			if rule.Function != "" {
				v = filteredSum(w, holdsFunction(filters, w.Result, rule.Function))
			}
			adds = append(adds, contribution{ls: r.seriesLabels(rule, w.Labels), value: float64(v)})
		}
	}
	if len(adds) == 0 {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	byTenant := r.open[start]
	if byTenant == nil {
		byTenant = map[string]*tenantSums{}
		r.open[start] = byTenant
	}
	sums := byTenant[tenant]
	if sums == nil {
		sums = &tenantSums{series: map[string]*Point{}}
		byTenant[tenant] = sums
	}
	for _, a := range adds {
		key := a.ls.String()
		p := sums.series[key]
		if p == nil {
			p = &Point{Labels: a.ls, TimeMillis: start}
			sums.series[key] = p
		}
		p.Value += a.value
	}
}

// seriesLabels are the labels of the rule's series for a profile's labels,
// built as Pyroscope's exporter builds them.
func (r *Recorder) seriesLabels(rule *rules.Compiled, ls storage.Labels) labels.Labels {
	b := labels.NewBuilder(rule.External)
	if r.instance != "" {
		b.Set(InstanceLabel, r.instance)
	}
	for _, name := range rule.GroupBy {
		if name == prom.MetricNameLabel || name == rules.RuleIDLabel {
			continue
		}
		if v := ls.Get(name); v != "" {
			b.Set(name, v)
		}
	}
	b.Set(prom.MetricNameLabel, rule.MetricName)
	b.Set(rules.RuleIDLabel, rule.ID)
	return b.Labels()
}

type filterKey struct {
	res *pprofconv.Result
	fn  string
}

// holdsFunction tells, per stack of res, whether a frame of it is fn;
// computed once per profile and function.
func holdsFunction(cache map[filterKey][]bool, res *pprofconv.Result, fn string) []bool {
	k := filterKey{res, fn}
	if h, ok := cache[k]; ok {
		return h
	}
	frameHit := make([]bool, len(res.Frames))
	for i, f := range res.Frames {
		frameHit[i] = res.Names[f.Name] == fn
	}
	h := make([]bool, len(res.Stacks))
	for i, stack := range res.Stacks {
		h[i] = slices.ContainsFunc(stack, func(f int32) bool { return frameHit[f] })
	}
	cache[k] = h
	return h
}

// filteredSum adds the values of the samples whose stack holds the
// function, each sample once however often the function appears in it.
func filteredSum(w *storage.Write, holds []bool) int64 {
	var sum int64
	for _, s := range w.Series.Samples {
		if holds[s.Stack] {
			sum += s.Value
		}
	}
	return sum
}

// Flush hands every interval that has closed to the sink; with all set it
// hands the open ones too (at shutdown).
func (r *Recorder) Flush(all bool) {
	now := r.now()
	r.mu.Lock()
	var starts []int64
	for start := range r.open {
		if all || time.UnixMilli(start).Add(r.interval).Compare(now) <= 0 {
			starts = append(starts, start)
		}
	}
	slices.Sort(starts)
	type batch struct {
		tenant string
		points []Point
	}
	var out []batch
	for _, start := range starts {
		for tenant, sums := range r.open[start] {
			pts := make([]Point, 0, len(sums.series))
			for _, p := range sums.series {
				pts = append(pts, *p)
			}
			out = append(out, batch{tenant, pts})
		}
		delete(r.open, start)
	}
	r.mu.Unlock()
	for _, b := range out {
		r.sink.Record(b.tenant, b.points)
	}
}

// Run flushes closed intervals as each one ends, until done is closed;
// then it flushes what is open.
func (r *Recorder) Run(done <-chan struct{}) {
	for {
		next := r.now().Truncate(r.interval).Add(r.interval)
		t := time.NewTimer(time.Until(next))
		select {
		case <-done:
			t.Stop()
			r.Flush(true)
			return
		case <-t.C:
			r.Flush(false)
		}
	}
}
