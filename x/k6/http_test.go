// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package k6

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime/pprof"
	"sync"
	"testing"

	"github.com/emberscope/emberscope/x/k6/internal/goroutinelabels"
)

// labelRecorder is an application handler that, inside its own pprof.Do as
// an instrumented application would, records the labels the runtime holds for
// its goroutine (what a CPU profile would attribute its samples to) and
// answers with the k6_scenario label it sees on its context.
type labelRecorder struct {
	mu     sync.Mutex
	labels map[string]string
	err    error
}

func (rec *labelRecorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	pprof.Do(r.Context(), pprof.Labels("route", "/work"), func(ctx context.Context) {
		labels, err := goroutinelabels.Current()
		rec.mu.Lock()
		rec.labels, rec.err = labels, err
		rec.mu.Unlock()
		scenario, _ := pprof.Label(ctx, "k6_scenario")
		_, _ = io.WriteString(w, scenario)
	})
}

// requireLabels fails unless the last request's goroutine carried exactly
// the wanted label values (a value of "" means the label must be absent).
func (rec *labelRecorder) requireLabels(t *testing.T, want map[string]string) {
	t.Helper()
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if rec.err != nil {
		t.Fatalf("reading the handler goroutine's labels: %v", rec.err)
	}
	for k, v := range want {
		if got := rec.labels[k]; got != v {
			t.Fatalf("the handler's goroutine has label %s=%q, want %q (all labels: %v)", k, got, v, rec.labels)
		}
	}
}

// appLabels plays a tracing integration that put a span id (and, here, its
// own k6_scenario) on the request context before the k6 middleware runs.
func appLabels(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := pprof.WithLabels(r.Context(), pprof.Labels("span_id", "abc123", "k6_scenario", "from-app"))
		pprof.SetGoroutineLabels(ctx)
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

func get(t *testing.T, url, baggage string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if baggage != "" {
		req.Header.Set("Baggage", baggage)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(body)
}

func TestHTTPHandlerLabelsTheServingGoroutine(t *testing.T) {
	rec := &labelRecorder{}
	srv := httptest.NewServer(LabelsFromBaggageHandler(rec))
	defer srv.Close()

	status, body := get(t, srv.URL+"/work",
		"k6.test_run_id=run-1,k6.scenario=checkout,k6.name=https%3A%2F%2Fshop.local%2Fcart%2F42%3Fq%3D1,user=bob")
	if status != http.StatusOK || body != "checkout" {
		t.Fatalf("got %d %q, want 200 %q", status, body, "checkout")
	}
	rec.requireLabels(t, map[string]string{
		"k6_test_run_id": "run-1",
		"k6_scenario":    "checkout",
		"k6_name":        "/cart/:id",
		"route":          "/work", // the handler's own pprof.Do nests inside
		"user":           "",      // non-k6 members are not labels
	})
}

func TestHTTPHandlerKeepsExistingLabels(t *testing.T) {
	rec := &labelRecorder{}
	srv := httptest.NewServer(appLabels(LabelsFromBaggageHandler(rec)))
	defer srv.Close()

	if _, body := get(t, srv.URL, "k6.scenario=browse,k6.test_run_id=run-2"); body != "from-app" {
		t.Fatalf("handler saw k6_scenario=%q, want the app's %q", body, "from-app")
	}
	rec.requireLabels(t, map[string]string{
		"span_id":        "abc123",
		"k6_scenario":    "from-app",
		"k6_test_run_id": "run-2",
		"route":          "/work",
	})
}

func TestHTTPHandlerIgnoresBadBaggage(t *testing.T) {
	rec := &labelRecorder{}
	srv := httptest.NewServer(LabelsFromBaggageHandler(rec))
	defer srv.Close()

	if status, _ := get(t, srv.URL, `k6.scenario="quoted",,;=;k6.name=%zz`); status != http.StatusOK {
		t.Errorf("bad baggage: status %d, want 200", status)
	}
	rec.requireLabels(t, map[string]string{"route": "/work", "k6_scenario": "", "k6_name": ""})

	status, body := get(t, srv.URL, "")
	if status != http.StatusOK || body != "" {
		t.Errorf("no baggage: got %d %q, want 200 and no k6_scenario", status, body)
	}
}

func TestHTTPHandlerRestoresGoroutineLabels(t *testing.T) {
	// net/http serves a keep-alive connection's requests on one goroutine:
	// after a request with baggage, the next one without must not be
	// profiled under the previous request's labels.
	rec := &labelRecorder{}
	srv := httptest.NewServer(LabelsFromBaggageHandler(rec))
	defer srv.Close()
	if _, body := get(t, srv.URL, "k6.scenario=one"); body != "one" {
		t.Fatalf("first request saw k6_scenario=%q, want %q", body, "one")
	}
	if _, body := get(t, srv.URL, ""); body != "" {
		t.Errorf("second request saw k6_scenario=%q, want none", body)
	}
	rec.requireLabels(t, map[string]string{"route": "/work", "k6_scenario": ""})
}
