// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Package spantest holds the tests of `github.com/emberscope/emberscope/x/k6`
// that need more than the module itself: a real HTTP server traced with
// OpenTelemetry (otelhttp and the SDK) and span-profiled with
// `github.com/grafana/otel-profiling-go`, real CPU profiles read with
// `github.com/google/pprof/profile`. It is a module of its own so that users
// of x/k6 never pull those dependencies.
package spantest
