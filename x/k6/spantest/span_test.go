// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package spantest

import (
	"bytes"
	"crypto/sha256"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime/pprof"
	"strings"
	"testing"
	"time"

	"github.com/google/pprof/profile"
	otelpyroscope "github.com/grafana/otel-profiling-go"
	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/emberscope/emberscope/x/k6"
)

// baggage is what k6 sends with every request of the test.
const baggage = "k6.test_run_id=run-7,k6.scenario=checkout,k6.name=https%3A%2F%2Fshop.local%2Fcart%2F42%3Fq%3D1"

// workPerRequest is how long one request keeps a CPU busy: at the CPU
// profiler's 100 Hz, a few samples per request.
const workPerRequest = 30 * time.Millisecond

// handlerWork hashes for workPerRequest; the tests look for its frame in the
// CPU profile.
//
//go:noinline
func handlerWork() [32]byte {
	sum := sha256.Sum256([]byte("k6"))
	for start := time.Now(); time.Since(start) < workPerRequest; {
		for range 200 {
			sum = sha256.Sum256(sum[:])
		}
	}
	return sum
}

func app(w http.ResponseWriter, _ *http.Request) {
	sum := handlerWork()
	_, _ = w.Write(sum[:4])
}

// tracing returns a tracer provider as a span-profiled service sets it up:
// the OpenTelemetry SDK, sampling every trace, wrapped by otel-profiling-go,
// and the recorder of the spans it ends.
func tracing(t *testing.T) (trace.TracerProvider, *tracetest.SpanRecorder) {
	rec := tracetest.NewSpanRecorder()
	sdk := sdktrace.NewTracerProvider(sdktrace.WithSampler(sdktrace.AlwaysSample()), sdktrace.WithSpanProcessor(rec))
	t.Cleanup(func() { _ = sdk.Shutdown(t.Context()) })
	return otelpyroscope.NewTracerProvider(sdk), rec
}

// profileRequests CPU-profiles the server while sending it requests with k6
// baggage, round after round, until the profile holds at least minSamples
// samples of handlerWork (at most maxRounds rounds), and returns those
// samples.
func profileRequests(t *testing.T, url string) []*profile.Sample {
	t.Helper()
	const minSamples, maxRounds, requestsPerRound = 10, 40, 10
	var samples []*profile.Sample
	for round := 0; round < maxRounds && len(samples) < minSamples; round++ {
		var buf bytes.Buffer
		if err := pprof.StartCPUProfile(&buf); err != nil {
			t.Fatalf("start CPU profile: %v", err)
		}
		for range requestsPerRound {
			get(t, url)
		}
		pprof.StopCPUProfile()
		p, err := profile.Parse(&buf)
		if err != nil {
			t.Fatalf("parse CPU profile: %v", err)
		}
		samples = append(samples, workSamples(p)...)
	}
	if len(samples) < minSamples {
		t.Fatalf("after %d rounds the CPU profiles hold %d samples of handlerWork, want %d", maxRounds, len(samples), minSamples)
	}
	return samples
}

func get(t *testing.T, url string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Baggage", baggage)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	if _, err := io.Copy(io.Discard, resp.Body); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: status %d, %v", url, resp.StatusCode, err)
	}
}

// workSamples returns the samples whose stack holds handlerWork, as
// google/pprof names the frames.
func workSamples(p *profile.Profile) []*profile.Sample {
	var out []*profile.Sample
	for _, s := range p.Sample {
	stack:
		for _, loc := range s.Location {
			for _, line := range loc.Line {
				if line.Function != nil && strings.HasSuffix(line.Function.Name, "spantest.handlerWork") {
					out = append(out, s)
					break stack
				}
			}
		}
	}
	return out
}

// requireK6AndSpanLabels fails unless every sample carries the k6 labels of
// the baggage and the span_id of one of the server spans the SDK ended.
func requireK6AndSpanLabels(t *testing.T, samples []*profile.Sample, rec *tracetest.SpanRecorder) {
	t.Helper()
	spans := map[string]bool{}
	for _, s := range rec.Ended() {
		if s.SpanKind() == trace.SpanKindServer {
			spans[s.SpanContext().SpanID().String()] = true
		}
	}
	if len(spans) == 0 {
		t.Fatal("the SDK ended no server span")
	}
	want := map[string]string{"k6_test_run_id": "run-7", "k6_scenario": "checkout", "k6_name": "/cart/:id"}
	for _, s := range samples {
		for k, v := range want {
			if got := strings.Join(s.Label[k], ","); got != v {
				t.Fatalf("a handlerWork sample has %s=%q, want %q (labels %v)", k, got, v, s.Label)
			}
		}
		if id := strings.Join(s.Label["span_id"], ","); !spans[id] {
			t.Fatalf("a handlerWork sample has span_id=%q, not one of the %d server spans (labels %v)", id, len(spans), s.Label)
		}
	}
}

func TestK6OutsideOtelHTTPWithSpanProfiles(t *testing.T) {
	tp, rec := tracing(t)
	h := k6.LabelsFromBaggageHandler(otelhttp.NewHandler(http.HandlerFunc(app), "cart", otelhttp.WithTracerProvider(tp)))
	srv := httptest.NewServer(h)
	defer srv.Close()
	requireK6AndSpanLabels(t, profileRequests(t, srv.URL+"/cart/42"), rec)
}

func TestK6InsideOtelHTTPWithSpanProfiles(t *testing.T) {
	tp, rec := tracing(t)
	h := otelhttp.NewHandler(k6.LabelsFromBaggageHandler(http.HandlerFunc(app)), "cart", otelhttp.WithTracerProvider(tp))
	srv := httptest.NewServer(h)
	defer srv.Close()
	requireK6AndSpanLabels(t, profileRequests(t, srv.URL+"/cart/42"), rec)
}
