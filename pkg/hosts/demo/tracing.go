// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package demo

import (
	"context"
	"encoding/json"
	"net/http"
	"sync"
	"time"

	otelpyroscope "github.com/grafana/otel-profiling-go"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// recentSpans is how many ended spans the service keeps in memory.
const recentSpans = 2048

// tracerName is the instrumentation scope of the service's spans.
const tracerName = "github.com/emberscope/emberscope/pkg/hosts/demo"

// newTracing sets the service up as a span-profiled service is set up: the
// OpenTelemetry SDK sampling every trace, wrapped by otel-profiling-go, so
// that each request's CPU samples carry its root span's span_id, span_name
// and trace_id pprof labels. Spans are kept in memory (the last recentSpans
// ended ones), not exported: the demo needs no tracing backend, and
// GET /debug/spans lists them so that a span id can be looked up.
func newTracing() (trace.Tracer, *spanRing) {
	ring := &spanRing{}
	sdk := sdktrace.NewTracerProvider(sdktrace.WithSampler(sdktrace.AlwaysSample()), sdktrace.WithSpanProcessor(ring))
	return otelpyroscope.NewTracerProvider(sdk).Tracer(tracerName), ring
}

// traced starts a server span per request, named after its route
// ("GET /car"), around h.
func traced(tracer trace.Tracer, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, span := tracer.Start(r.Context(), r.Method+" "+r.URL.Path, trace.WithSpanKind(trace.SpanKindServer))
		defer span.End()
		h.ServeHTTP(w, r.WithContext(ctx))
	})
}

// SpanRecord is one ended span as GET /debug/spans lists it.
type SpanRecord struct {
	TraceID    string    `json:"traceId"`
	SpanID     string    `json:"spanId"`
	Name       string    `json:"name"`
	Start      time.Time `json:"start"`
	DurationMs float64   `json:"durationMs"`
}

// spanRing is a span processor keeping the last recentSpans ended spans.
type spanRing struct {
	mu    sync.Mutex
	spans []SpanRecord
	next  int
}

var _ sdktrace.SpanProcessor = (*spanRing)(nil)

func (r *spanRing) OnStart(context.Context, sdktrace.ReadWriteSpan) {}

func (r *spanRing) OnEnd(s sdktrace.ReadOnlySpan) {
	rec := SpanRecord{
		TraceID:    s.SpanContext().TraceID().String(),
		SpanID:     s.SpanContext().SpanID().String(),
		Name:       s.Name(),
		Start:      s.StartTime().UTC(),
		DurationMs: float64(s.EndTime().Sub(s.StartTime()).Microseconds()) / 1000,
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.spans) < recentSpans {
		r.spans = append(r.spans, rec)
		return
	}
	r.spans[r.next] = rec
	r.next = (r.next + 1) % recentSpans
}

func (r *spanRing) Shutdown(context.Context) error   { return nil }
func (r *spanRing) ForceFlush(context.Context) error { return nil }

// Recent returns the kept spans, most recent first.
func (r *spanRing) Recent() []SpanRecord {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]SpanRecord, 0, len(r.spans))
	for i := range r.spans {
		// r.next is the oldest once the ring is full
		out = append(out, r.spans[(r.next+len(r.spans)-1-i)%len(r.spans)])
	}
	return out
}

// serveSpans answers GET /debug/spans with the recent spans as JSON.
func (r *spanRing) serveSpans(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(r.Recent())
}
