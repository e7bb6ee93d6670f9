// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"flag"

	"github.com/emberscope/emberscope/pkg/profile/novelty"
	"github.com/emberscope/emberscope/pkg/store/vectors"
)

// noveltyFlags registers the store's novelty flags on fs and returns a
// function reading them once parsed.
func noveltyFlags(fs *flag.FlagSet) func() (vectors.Options, error) {
	by := fs.String("novelty-by", "function", "features of the vector kept per profile: function or stack")
	k := fs.Int("novelty-k", novelty.DefaultK, "features of the vector kept exactly (the largest self contributors)")
	d := fs.Int("novelty-d", novelty.DefaultD, "hash buckets of the vector for the other features")
	sampling := fs.Bool("novelty-sampling", false, "keep only the totals, labels and vector of a profile matching its series' recent pattern (the first of each pattern per window is kept whole)")
	threshold := fs.Float64("novelty-sampling-threshold", vectors.DefaultSamplingThreshold, "cosine distance within which a profile matches a pattern")
	window := fs.Duration("novelty-sampling-window", vectors.DefaultSamplingWindow, "period in which the first profile of each pattern is kept whole")
	return func() (vectors.Options, error) {
		b, err := novelty.ParseBy(*by)
		if err != nil {
			return vectors.Options{}, err
		}
		return vectors.Options{
			Params:   novelty.Params{K: *k, D: *d, By: b},
			Sampling: vectors.Sampling{Enabled: *sampling, Threshold: *threshold, Window: *window},
		}, nil
	}
}
