// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Package parca is the datasource's client of a Parca server (v0.28 and
// later): it speaks Parca's REST API (the grpc-gateway under /api) and
// implements source.Source, so nothing above it knows that Parca answered
// rather than Pyroscope.
//
// # Profile types and query strings
//
// Our profile type IDs are Pyroscope's five parts,
// "name:sample_type:sample_unit:period_type:period_unit". Parca writes the
// same five parts and appends ":delta" exactly when /api/profiles/types says
// delta=true (CPU profiles usually; heap profiles are not delta). Parca
// answers 404 when ":delta" is left off a delta type, so the client learns
// which types are delta from /api/profiles/types (cached, refreshed when an
// unknown ID is asked for) and maps:
//
//	process_cpu:cpu:nanoseconds:cpu:nanoseconds  ->  process_cpu:cpu:nanoseconds:cpu:nanoseconds:delta
//	memory:alloc_space:bytes:space:bytes         ->  memory:alloc_space:bytes:space:bytes
//
// An ID that already ends in ":delta" is sent as it is; an ID the server does
// not list is sent without ":delta" and Parca's answer decides.
//
// A Parca query is that type string followed by the label selector, which is
// sent unchanged (label names are kept as they are: Parca has no
// service_name convention, its labels are whatever the agent or pusher sent,
// often "job"):
//
//	type process_cpu:cpu:nanoseconds:cpu:nanoseconds, selector {job="api"}
//	  -> process_cpu:cpu:nanoseconds:cpu:nanoseconds:delta{job="api"}
//
// Parca's own parser checks the selector, and its 400 message ("failed to
// parse query") is what the user sees.
//
// # What Parca cannot do
//
//   - Label matchers: /api/profiles/labels ignores "match". The client turns
//     __profile_type__="<id>" into Parca's profileType filter. LabelValues
//     applies the matchers on the asked label itself client-side, and applies
//     matchers on other labels through one query_range call grouped by the
//     label when a profile type and a time range are given. LabelNames cannot
//     apply matchers on labels: it returns every label name of the type.
//   - pprof sample labels are dropped by Parca at ingest, so they are neither
//     labels nor usable in group-by.
//   - MaxNodes is not a Parca parameter: trees come back whole and are
//     truncated above the client.
//   - /api/profiles/series answers 501 (not implemented); the client does not
//     call it.
//   - query_range and query answer 404 with a text/plain body for "no data"
//     (unknown type, nothing matched, empty window). Series turns that 404
//     into no series, as Pyroscope answers an empty result.
package parca
