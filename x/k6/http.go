package k6

import (
	"context"
	"net/http"
	"runtime/pprof"
)

// baggageHeader is the W3C Baggage header (and gRPC metadata key).
const baggageHeader = "baggage"

// canonicalBaggageHeader is baggageHeader as net/http keys it.
const canonicalBaggageHeader = "Baggage"

// LabelsFromBaggageHandler wraps h so that every request carrying k6 baggage
// runs with pprof labels k6_test_run_id, k6_scenario, k6_name (one per `k6.`
// member). The labels are on the goroutine while h runs and on the request's
// context, so goroutines h starts with that context and h's own pprof.Do
// calls keep them. Requests without usable k6 members are passed through
// untouched; malformed baggage never fails a request.
func LabelsFromBaggageHandler(h http.Handler, opts ...Option) http.Handler {
	c := newConfig(opts)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		pairs := c.labelPairs(r.Context(), r.Header[canonicalBaggageHeader])
		if len(pairs) == 0 {
			h.ServeHTTP(w, r)
			return
		}
		pprof.Do(r.Context(), pprof.Labels(pairs...), func(ctx context.Context) {
			h.ServeHTTP(w, r.WithContext(ctx))
		})
	})
}
