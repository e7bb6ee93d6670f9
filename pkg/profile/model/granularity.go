// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package model

import (
	"fmt"
	"strings"
)

// Granularity is what one frame of a flamegraph stands for, as pprof's
// -functions, -lines and -files options choose.
type Granularity string

// The granularities.
const (
	// GranularityFunctions makes one frame per function (the default).
	GranularityFunctions Granularity = "functions"
	// GranularityLines makes one frame per function and source line:
	// "main.compress workloads.go:243".
	GranularityLines Granularity = "lines"
	// GranularityFiles makes one frame per source file:
	// "/usr/local/go/src/runtime/malloc.go".
	GranularityFiles Granularity = "files"
)

// ParseGranularity reads a granularity; "" is GranularityFunctions.
func ParseGranularity(s string) (Granularity, error) {
	switch g := Granularity(strings.TrimSpace(s)); g {
	case "":
		return GranularityFunctions, nil
	case GranularityFunctions, GranularityLines, GranularityFiles:
		return g, nil
	default:
		return "", fmt.Errorf("%q is not a granularity: use functions, lines or files", s)
	}
}
