// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Package demo runs Emberscope's demo on loopback: the embedded profile
// store, an instrumented ride-share service (routes /car, /bike, /scooter
// doing real CPU and allocation work under pprof labels, wrapped in the k6
// baggage middleware and profiled with the Pyroscope Go SDK), a k6-style
// load generator and the playground.
//
// The service runs in a process of its own (ServiceMain, started as
// `emberscope demo -service`), so that its profiles show its own work and
// not the store's or the playground's; it stops, flushing its profiler,
// when the demo closes its stdin or dies.
//
// Files: service.go (routes and labels), city.go (route planning),
// fleet.go, pricing.go, metrics.go, encode.go (the work per category),
// loadgen.go (k6-style load), profiler.go (the SDK), servicemain.go and
// process.go (the service process), ready.go (first-profile check),
// demo.go (wiring it all).
package demo
