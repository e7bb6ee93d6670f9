// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package demo

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/pkg/store/rules"
)

// TestRecordingRules: the demo's rules pass the store's checks, and the
// function filter names the route search as pprof names its frames
// (package path, receiver, method).
func TestRecordingRules(t *testing.T) {
	for _, r := range recordingRules() {
		require.NoError(t, rules.Validate(r), r.MetricName)
	}
	require.Equal(t, reflect.TypeFor[cityMap]().PkgPath()+".(*cityMap).shortestPath", ShortestPathFunction)
}
