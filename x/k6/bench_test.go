// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package k6

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// BenchmarkHandler measures what the middleware adds to a request: run
// with -bench Handler and compare "bare" with the others.
func BenchmarkHandler(b *testing.B) {
	noop := http.HandlerFunc(func(http.ResponseWriter, *http.Request) {})
	cases := []struct {
		name    string
		h       http.Handler
		baggage string
	}{
		{"bare", noop, ""},
		{"no-baggage", LabelsFromBaggageHandler(noop), ""},
		{"k6-baggage", LabelsFromBaggageHandler(noop),
			"k6.test_run_id=1732871000,k6.scenario=checkout,k6.name=https%3A%2F%2Fshop.local%2Fcart%2F42%3Fq%3D1"},
		{"mixed-baggage", LabelsFromBaggageHandler(noop),
			"userId=alice,tenant=acme,k6.test_run_id=1732871000,k6.scenario=checkout,k6.name=https://shop.local/cart/42,sampled=1"},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			req := httptest.NewRequest(http.MethodGet, "/cart/42", nil)
			if c.baggage != "" {
				req.Header.Set("Baggage", c.baggage)
			}
			w := httptest.NewRecorder()
			b.ReportAllocs()
			for b.Loop() {
				c.h.ServeHTTP(w, req)
			}
		})
	}
}
