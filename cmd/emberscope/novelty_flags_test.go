// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"flag"
	"io"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/pkg/profile/novelty"
)

func TestNoveltySamplingFlags(t *testing.T) {
	parse := func(args ...string) (float64, error) {
		fs := flag.NewFlagSet("store", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		read := noveltyFlags(fs)
		require.NoError(t, fs.Parse(args))
		o, err := read()
		return o.Sampling.Level, err
	}
	level, err := parse("-novelty-sampling")
	require.NoError(t, err)
	require.Equal(t, novelty.DefaultSamplingLevel, level, "sampling's own bar by default")
	level, err = parse("-novelty-sampling", "-novelty-sampling-level", "-1.2")
	require.NoError(t, err)
	require.Equal(t, -1.2, level)
	_, err = parse("-novelty-sampling-level", "0")
	require.ErrorContains(t, err, "small nonzero level")
	for _, old := range [][]string{{"-novelty-false-alarms-per-day", "10"}, {"-novelty-push-interval", "10s"}, {"-novelty-sampling-threshold", "0.1"}} {
		_, err = parse(old...)
		require.ErrorContains(t, err, "-novelty-sampling-level", "%s is refused with the new flag's name", old[0])
	}
}
