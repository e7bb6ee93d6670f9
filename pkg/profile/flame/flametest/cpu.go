// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package flametest

import (
	"os"
	"testing"

	"github.com/google/pprof/profile"

	"github.com/emberscope/emberscope/internal/fixtures"
)

// CPUFile is the recorded CPU profile CPUProfile reads: parsing, hashing and
// sorting (generic slices.Sort) under pprof label category=parse|hash|sort,
// and main.recurse calling itself 12 deep, then hashing, without labels.
const CPUFile = "categories.cpu.pb.gz"

// CPUProfilePath is the absolute path of CPUFile.
func CPUProfilePath(tb testing.TB) string {
	tb.Helper()
	return fixtures.ProfilePath(tb, CPUFile)
}

// CPUProfile parses CPUFile, a real CPU profile recorded with runtime/pprof
// by internal/fixtures/cmd/record (functions main.burnParse, main.burnHash,
// main.burnSort, main.recurse).
func CPUProfile(tb testing.TB) *profile.Profile {
	tb.Helper()
	f, err := os.Open(CPUProfilePath(tb))
	if err != nil {
		tb.Fatalf("flametest: %v", err)
	}
	defer f.Close()
	p, err := profile.Parse(f)
	if err != nil {
		tb.Fatalf("flametest: parse CPU profile: %v", err)
	}
	return p
}
