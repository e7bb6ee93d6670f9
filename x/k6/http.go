// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package k6

import (
	"context"
	"net/http"
)

// canonicalBaggageHeader is the W3C Baggage header as net/http keys it.
const canonicalBaggageHeader = "Baggage"

// LabelsFromBaggageHandler wraps h so that every request carrying k6 baggage
// runs with pprof labels k6_test_run_id, k6_scenario, k6_name (one per `k6.`
// member). The labels are on the goroutine while h runs and on the request's
// context, so goroutines h starts with that context and h's own pprof.Do
// calls keep them. Labels already on the request's context (a span
// profiler's span_id) are kept. Requests without usable k6 members are passed
// through untouched; malformed baggage never fails a request.
func LabelsFromBaggageHandler(h http.Handler, opts ...Option) http.Handler {
	l := NewLabeler(opts...)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		baggage := r.Header[canonicalBaggageHeader]
		if len(baggage) == 0 {
			h.ServeHTTP(w, r)
			return
		}
		l.Do(r.Context(), baggage, func(ctx context.Context) {
			if ctx == r.Context() {
				h.ServeHTTP(w, r)
			} else {
				h.ServeHTTP(w, r.WithContext(ctx))
			}
		})
	})
}
