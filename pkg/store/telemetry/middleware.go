// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package telemetry

import (
	"net/http"
	"strings"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// TracerName is the instrumentation scope of the store's spans.
const TracerName = "github.com/emberscope/emberscope/pkg/store"

var propagator = propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{})

// Traced wraps the store's handler so that each ingest and query request
// is a server span, continuing the caller's trace (W3C traceparent):
// "POST /ingest", "push.v1.PusherService/Push" and
// "querier.v1.QuerierService/<Method>". Health checks, metric scrapes and
// flushes are not traced.
func Traced(tp trace.TracerProvider, next http.Handler) http.Handler {
	tracer := tp.Tracer(TracerName)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name, attrs, ok := spanFor(r)
		if !ok {
			next.ServeHTTP(w, r)
			return
		}
		ctx := propagator.Extract(r.Context(), propagation.HeaderCarrier(r.Header))
		ctx, span := tracer.Start(ctx, name, trace.WithSpanKind(trace.SpanKindServer), trace.WithAttributes(attrs...))
		defer span.End()
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		next.ServeHTTP(rec, r.WithContext(ctx))
		span.SetAttributes(attribute.Int("http.response.status_code", rec.status), attribute.Int64("emberscope.response.bytes", rec.bytes))
		if rec.status >= 500 {
			span.SetStatus(codes.Error, http.StatusText(rec.status))
		}
	})
}

// spanFor names the span of a request and gives its attributes; ok is
// false for requests that are not ingest or queries.
func spanFor(r *http.Request) (string, []attribute.KeyValue, bool) {
	attrs := []attribute.KeyValue{
		attribute.String("http.request.method", r.Method),
		attribute.String("url.path", r.URL.Path),
	}
	if r.ContentLength >= 0 {
		attrs = append(attrs, attribute.Int64("http.request.body.size", r.ContentLength))
	}
	p := r.URL.Path
	switch {
	case p == "/ingest":
		q := r.URL.Query()
		attrs = append(attrs, attribute.String("emberscope.ingest.name", q.Get("name")), attribute.String("emberscope.ingest.format", q.Get("format")))
		return r.Method + " /ingest", attrs, true
	case strings.HasPrefix(p, "/push.v1.") || strings.HasPrefix(p, "/querier.v1."):
		full := strings.TrimPrefix(p, "/")
		service, method, _ := strings.Cut(full, "/")
		attrs = append(attrs, attribute.String("rpc.system", "connect_rpc"), attribute.String("rpc.service", service), attribute.String("rpc.method", method))
		return full, attrs, true
	}
	return "", nil, false
}

// statusRecorder remembers the status and size of a response.
type statusRecorder struct {
	http.ResponseWriter
	status      int
	bytes       int64
	wroteHeader bool
}

func (s *statusRecorder) WriteHeader(code int) {
	if !s.wroteHeader {
		s.status, s.wroteHeader = code, true
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Write(b []byte) (int, error) {
	s.wroteHeader = true
	n, err := s.ResponseWriter.Write(b)
	s.bytes += int64(n)
	return n, err
}

// Flush lets streaming responses through.
func (s *statusRecorder) Flush() {
	if f, ok := s.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap gives http.ResponseController the underlying writer.
func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }
