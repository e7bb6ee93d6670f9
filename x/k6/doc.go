// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Package k6 turns the W3C baggage that k6 load tests send into Go profiler
// labels, so that CPU and memory profiles of a service under test can be
// sliced by test run, scenario and request name.
//
// k6 (with its tracing/profiling instrumentation) sends a `baggage` header
// such as
//
//	baggage: k6.test_run_id=1700000000,k6.scenario=checkout,k6.name=https%3A%2F%2Fshop.local%2Fcart%2F42
//
// The HTTP middleware [LabelsFromBaggageHandler] (and the gRPC interceptors of
// the module `github.com/emberscope/emberscope/x/k6/grpc`) read it and, for the
// duration of the request, add runtime/pprof labels named after the members
// (`k6.test_run_id` becomes `k6_test_run_id`, and so on). Labels that are
// already on the request's context — set by a tracing integration or by the
// application — are kept, never overwritten. The request's context carries the
// labels, so a handler's own [runtime/pprof.Do] nests inside them.
//
// Members without the `k6.` prefix, empty values and malformed members are
// ignored; a bad header never fails a request. By default `k6.name`, which k6
// fills with the full request URL, is normalised to a low-cardinality route
// (`https://shop.local/cart/42?x=1` becomes `/cart/:id`); see [WithRawValues],
// [WithDropped] and [WithMaxValueLength].
//
// The module depends only on the standard library and the OpenTelemetry
// baggage parser, and says `go 1.25.0` (pyroscope-go v1.5.0's floor).
package k6
