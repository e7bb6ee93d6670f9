// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package metrics

import (
	"sync"

	"github.com/prometheus/client_golang/prometheus"
)

// MaxServiceLabels is how many services get a label value of their own in
// the received-profiles counter; the others are counted as OtherService.
const MaxServiceLabels = 50

// OtherService is the service label value of services beyond the guard.
const OtherService = "other"

// ProfilesReceived counts stored profiles by profile type and service,
// with a cardinality guard on the service label: the first
// MaxServiceLabels services seen keep their name (so a service's series
// never changes name), every later one is counted under "other".
type ProfilesReceived struct {
	vec   *prometheus.CounterVec
	mu    sync.Mutex
	named map[string]bool
	max   int
}

// NewProfilesReceived returns the counter, named
// emberscope_ingest_profiles_received_total, guarding at most max services.
func NewProfilesReceived(max int) *ProfilesReceived {
	return &ProfilesReceived{
		vec: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "emberscope_ingest_profiles_received_total",
			Help: "Profiles stored, by profile type and service (the first 50 services by name, the rest as \"other\").",
		}, []string{"profile_type", "service"}),
		named: make(map[string]bool),
		max:   max,
	}
}

// Inc counts one profile.
func (p *ProfilesReceived) Inc(profileType, service string) {
	p.vec.WithLabelValues(profileType, p.serviceLabel(service)).Inc()
}

func (p *ProfilesReceived) serviceLabel(service string) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.named[service] {
		return service
	}
	if len(p.named) < p.max && service != OtherService {
		p.named[service] = true
		return service
	}
	return OtherService
}

// Describe implements prometheus.Collector.
func (p *ProfilesReceived) Describe(ch chan<- *prometheus.Desc) { p.vec.Describe(ch) }

// Collect implements prometheus.Collector.
func (p *ProfilesReceived) Collect(ch chan<- prometheus.Metric) { p.vec.Collect(ch) }
