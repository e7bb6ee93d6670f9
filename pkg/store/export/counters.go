// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package export

import (
	"maps"
	"slices"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
	prom "github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/model/labels"

	"github.com/emberscope/emberscope/pkg/store/recording"
)

// TenantLabel names the tenant on scraped series of tenants other than
// the anonymous one (remote write sends it as X-Scope-OrgID instead).
const TenantLabel = "profiles_tenant"

// Counters exposes the recorded series, without remote write, as counters
// on the store's scrape endpoint: each interval's value is added to its
// series' counter, so rate() over them gives the rules' values per second.
type Counters struct {
	anonymous string

	mu     sync.Mutex
	series map[string]*counter
}

type counter struct {
	names, values []string
	metric        string
	value         float64
}

// NewCounters returns an empty set of counters; anonymous is the tenant
// whose series carry no TenantLabel.
func NewCounters(anonymous string) *Counters {
	return &Counters{anonymous: anonymous, series: map[string]*counter{}}
}

// Record adds each point's value to its series' counter.
func (c *Counters) Record(tenant string, points []recording.Point) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, p := range points {
		ls := p.Labels
		if tenant != c.anonymous {
			ls = labels.NewBuilder(ls).Set(TenantLabel, tenant).Labels()
		}
		key := ls.String()
		s := c.series[key]
		if s == nil {
			s = &counter{}
			ls.Range(func(l labels.Label) {
				if l.Name == prom.MetricNameLabel {
					s.metric = l.Value
					return
				}
				s.names = append(s.names, l.Name)
				s.values = append(s.values, l.Value)
			})
			c.series[key] = s
		}
		s.value += p.Value
	}
}

// Describe sends nothing: the series come and go with the rules, so the
// collector is unchecked.
func (c *Counters) Describe(chan<- *prometheus.Desc) {}

// Collect sends every series' counter.
func (c *Counters) Collect(ch chan<- prometheus.Metric) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, k := range slices.Sorted(maps.Keys(c.series)) {
		s := c.series[k]
		desc := prometheus.NewDesc(s.metric, "Recorded from profiles by a recording rule (settings.v1.RecordingRulesService).", s.names, nil)
		ch <- prometheus.MustNewConstMetric(desc, prometheus.CounterValue, s.value, s.values...)
	}
}
