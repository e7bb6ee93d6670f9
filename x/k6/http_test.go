package k6

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime/pprof"
	"testing"
)

// burnHandler burns CPU inside its own pprof.Do, as an instrumented
// application would, and reports the k6 label it sees on its context.
func burnHandler(w http.ResponseWriter, r *http.Request) {
	pprof.Do(r.Context(), pprof.Labels("route", "/burn"), func(ctx context.Context) {
		burnCPU()
		scenario, _ := pprof.Label(ctx, "k6_scenario")
		_, _ = io.WriteString(w, scenario)
	})
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

func TestHTTPHandlerLabelsCPUSamples(t *testing.T) {
	srv := httptest.NewServer(LabelsFromBaggageHandler(http.HandlerFunc(burnHandler)))
	defer srv.Close()

	var status int
	var body string
	p := captureCPUProfile(t, func() {
		status, body = get(t, srv.URL+"/burn",
			"k6.test_run_id=run-1,k6.scenario=checkout,k6.name=https%3A%2F%2Fshop.local%2Fcart%2F42%3Fq%3D1,user=bob")
	})
	if status != http.StatusOK || body != "checkout" {
		t.Fatalf("got %d %q, want 200 %q", status, body, "checkout")
	}
	requireLabels(t, p, map[string]string{
		"k6_test_run_id": "run-1",
		"k6_scenario":    "checkout",
		"k6_name":        "/cart/:id",
		"route":          "/burn", // the handler's own pprof.Do nests inside
		"user":           "",      // non-k6 members are not labels
	})
}

func TestHTTPHandlerKeepsExistingLabels(t *testing.T) {
	srv := httptest.NewServer(appLabels(LabelsFromBaggageHandler(http.HandlerFunc(burnHandler))))
	defer srv.Close()

	var body string
	p := captureCPUProfile(t, func() {
		_, body = get(t, srv.URL, "k6.scenario=browse,k6.test_run_id=run-2")
	})
	if body != "from-app" {
		t.Fatalf("handler saw k6_scenario=%q, want the app's %q", body, "from-app")
	}
	requireLabels(t, p, map[string]string{
		"span_id":        "abc123",
		"k6_scenario":    "from-app",
		"k6_test_run_id": "run-2",
		"route":          "/burn",
	})
}

func TestHTTPHandlerIgnoresBadBaggage(t *testing.T) {
	srv := httptest.NewServer(LabelsFromBaggageHandler(http.HandlerFunc(burnHandler)))
	defer srv.Close()

	p := captureCPUProfile(t, func() {
		status, _ := get(t, srv.URL, `k6.scenario="quoted",,;=;k6.name=%zz`)
		if status != http.StatusOK {
			t.Errorf("bad baggage: status %d, want 200", status)
		}
	})
	requireLabels(t, p, map[string]string{"route": "/burn", "k6_scenario": "", "k6_name": ""})

	status, body := get(t, srv.URL, "")
	if status != http.StatusOK || body != "" {
		t.Errorf("no baggage: got %d %q, want 200 and no k6_scenario", status, body)
	}
}

func TestHTTPHandlerRestoresGoroutineLabels(t *testing.T) {
	// net/http serves a keep-alive connection's requests on one goroutine:
	// after a request with baggage, the next one without must not be
	// profiled under the previous request's labels.
	srv := httptest.NewServer(LabelsFromBaggageHandler(http.HandlerFunc(burnHandler)))
	defer srv.Close()
	if _, body := get(t, srv.URL, "k6.scenario=one"); body != "one" {
		t.Fatalf("first request saw k6_scenario=%q, want %q", body, "one")
	}
	p := captureCPUProfile(t, func() {
		if _, body := get(t, srv.URL, ""); body != "" {
			t.Errorf("second request saw k6_scenario=%q, want none", body)
		}
	})
	requireLabels(t, p, map[string]string{"route": "/burn", "k6_scenario": ""})
}
