// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package labelframes_test

import (
	"testing"

	"github.com/google/pprof/profile"

	"github.com/emberscope/emberscope/internal/fixtures"
)

// The recorded CPU profile virtual.cpu.pb.gz (internal/fixtures/cmd/record) runs
// each workload in its own function under pprof labels, covering a value
// split by "::", values on two labels, a value without the second label, the
// second label without the first, and no labels:
//
//	burnMetrics      category="observability :: metrics", route="/metrics"
//	burnLogs         category="observability :: logs", route="/logs"
//	burnStorage      category="storage", route="/write"
//	burnAPIRead      category="api", route="/read"
//	burnAPIInternal  category="api"
//	burnBackground   route="/bg"
//	burnNoLabels     no labels
const (
	burnMetrics     = "burnMetrics"
	burnLogs        = "burnLogs"
	burnStorage     = "burnStorage"
	burnAPIRead     = "burnAPIRead"
	burnAPIInternal = "burnAPIInternal"
	burnBackground  = "burnBackground"
	burnUnlabelled  = "burnNoLabels"
)

// realCPUProfile parses the recorded CPU profile of the workloads above.
func realCPUProfile(tb testing.TB) *profile.Profile {
	tb.Helper()
	p, err := profile.ParseData(fixtures.Profile(tb, "virtual.cpu.pb.gz"))
	if err != nil {
		tb.Fatalf("parse the recorded CPU profile: %v", err)
	}
	return p
}

// funcName is the full name pprof records for a workload's function.
func funcName(short string) string { return "main." + short }
