// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Package telemetry makes the store observable: OpenTelemetry tracing of
// its ingest and query requests (off unless the standard OTEL_* variables
// ask for an OTLP exporter) and gauges of its memory.
package telemetry

import (
	"context"
	"fmt"
	"os"
	"strings"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"
)

// DefaultServiceName names the store in traces unless OTEL_SERVICE_NAME
// (or service.name in OTEL_RESOURCE_ATTRIBUTES) says otherwise.
const DefaultServiceName = "emberscope-store"

// TracingEnabled reports whether the environment asks for traces: an OTLP
// endpoint is set (OTEL_EXPORTER_OTLP_ENDPOINT or
// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) or OTEL_TRACES_EXPORTER is "otlp",
// and neither OTEL_SDK_DISABLED=true nor OTEL_TRACES_EXPORTER=none.
func TracingEnabled(getenv func(string) string) bool {
	if strings.EqualFold(getenv("OTEL_SDK_DISABLED"), "true") {
		return false
	}
	switch exporter := strings.ToLower(strings.TrimSpace(getenv("OTEL_TRACES_EXPORTER"))); exporter {
	case "none":
		return false
	case "otlp":
		return true
	}
	return getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != "" || getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != ""
}

// Tracing is the store's tracer provider and how to stop it.
type Tracing struct {
	Provider trace.TracerProvider
	// Enabled is false when the environment asked for no traces (Provider
	// then records nothing).
	Enabled bool
	// Shutdown flushes the spans not yet exported and stops the exporter.
	Shutdown func(context.Context) error
}

// SetupTracing reads the OTEL_* environment. When tracing is enabled it
// builds an OTLP exporter (http/protobuf, or gRPC when
// OTEL_EXPORTER_OTLP_[TRACES_]PROTOCOL=grpc; endpoint, headers, timeout,
// TLS and sampler from the standard variables), installs the provider and
// the W3C trace-context propagator globally, and returns them. Otherwise it
// returns a provider that records nothing.
func SetupTracing(ctx context.Context) (*Tracing, error) {
	if !TracingEnabled(os.Getenv) {
		return &Tracing{Provider: noop.NewTracerProvider(), Shutdown: func(context.Context) error { return nil }}, nil
	}
	protocol := os.Getenv("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL")
	if protocol == "" {
		protocol = os.Getenv("OTEL_EXPORTER_OTLP_PROTOCOL")
	}
	var (
		exp sdktrace.SpanExporter
		err error
	)
	switch protocol {
	case "", "http/protobuf":
		exp, err = otlptracehttp.New(ctx)
	case "grpc":
		exp, err = otlptracegrpc.New(ctx)
	default:
		return nil, fmt.Errorf("OTEL_EXPORTER_OTLP_PROTOCOL %q: the store exports traces over \"http/protobuf\" or \"grpc\"", protocol)
	}
	if err != nil {
		return nil, fmt.Errorf("OTLP trace exporter: %w", err)
	}
	res, err := resource.New(ctx,
		resource.WithAttributes(attribute.String("service.name", DefaultServiceName)),
		resource.WithTelemetrySDK(),
		resource.WithFromEnv(), // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES win
	)
	if err != nil {
		return nil, fmt.Errorf("trace resource: %w", err)
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res))
	otel.SetTracerProvider(tp)
	otel.SetTextMapPropagator(propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{}))
	return &Tracing{Provider: tp, Enabled: true, Shutdown: tp.Shutdown}, nil
}
