// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package limits

import (
	"net/http"
	"sync"
	"time"
)

// ActiveWindow is how long a series counts as active after its last profile.
const ActiveWindow = time.Hour

// SeriesTracker counts each tenant's series that received a profile within
// ActiveWindow and refuses new series beyond a maximum.
type SeriesTracker struct {
	max int
	now func() time.Time

	mu        sync.Mutex
	tenants   map[string]map[string]time.Time
	lastPrune time.Time
}

// NewSeriesTracker returns a tracker allowing max active series per tenant
// (0: no limit).
func NewSeriesTracker(max int, now func() time.Time) *SeriesTracker {
	if now == nil {
		now = time.Now
	}
	return &SeriesTracker{max: max, now: now, tenants: make(map[string]map[string]time.Time)}
}

// Seen records a series active at t (used to seed the tracker at start).
func (s *SeriesTracker) Seen(tenant, key string, t time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.tenant(tenant)
	if t.After(m[key]) {
		m[key] = t
	}
}

func (s *SeriesTracker) tenant(tenant string) map[string]time.Time {
	m := s.tenants[tenant]
	if m == nil {
		m = make(map[string]time.Time)
		s.tenants[tenant] = m
	}
	return m
}

// Admit checks that the tenant may write to every series of keys; when it
// may, they count as active from now on. The check is all or nothing.
func (s *SeriesTracker) Admit(tenant string, keys []string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	if now.Sub(s.lastPrune) > time.Minute {
		s.lastPrune = now
		for _, m := range s.tenants {
			for k, t := range m {
				if now.Sub(t) > ActiveWindow {
					delete(m, k)
				}
			}
		}
	}
	m := s.tenant(tenant)
	if s.max > 0 {
		fresh := 0
		counted := make(map[string]bool)
		for _, k := range keys {
			if t, ok := m[k]; (!ok || now.Sub(t) > ActiveWindow) && !counted[k] {
				counted[k] = true
				fresh++
			}
		}
		if fresh > 0 && len(m)+fresh > s.max {
			e := Exceeded("max-series-per-tenant", "series with profiles in the last hour", len(m)+fresh, s.max, http.StatusUnprocessableEntity)
			e.Where = "tenant " + tenant
			return e
		}
	}
	for _, k := range keys {
		m[k] = now
	}
	return nil
}

// Active returns the number of active series of a tenant.
func (s *SeriesTracker) Active(tenant string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.tenants[tenant])
}
