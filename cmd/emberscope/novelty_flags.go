// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"errors"
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
	sampling := fs.Bool("novelty-sampling", false, "keep only the totals, labels and vector of a profile whose surprise level against its series' last profiles is at or below -novelty-sampling-level (the first of each window, and the others, are kept whole)")
	level := fs.Float64("novelty-sampling-level", novelty.DefaultSamplingLevel, "sampling's bar: the surprise level (the score before it is clamped at 0) above which a profile is kept whole; lower keeps more")
	perDay := fs.Float64("novelty-false-alarms-per-day", 0, "removed: sampling has its own bar, -novelty-sampling-level")
	interval := fs.Duration("novelty-push-interval", 0, "removed: sampling has its own bar, -novelty-sampling-level")
	threshold := fs.Float64("novelty-sampling-threshold", 0, "removed: sampling decides with the surprise score; use -novelty-sampling-level")
	window := fs.Duration("novelty-sampling-window", vectors.DefaultSamplingWindow, "period in which a series' first profile is kept whole")
	return func() (vectors.Options, error) {
		if *threshold != 0 {
			return vectors.Options{}, errors.New("-novelty-sampling-threshold was a cosine distance, and sampling now decides with the surprise score: set -novelty-sampling-level instead")
		}
		if *perDay != 0 || *interval != 0 {
			return vectors.Options{}, errors.New("-novelty-false-alarms-per-day and -novelty-push-interval set sampling's bar as the alarm's threshold; sampling now has its own, lower bar: set -novelty-sampling-level instead (default -0.6)")
		}
		if *level == 0 {
			return vectors.Options{}, errors.New("-novelty-sampling-level 0 would take the default level; give a small nonzero level (such as 0.01) for a bar at 0")
		}
		b, err := novelty.ParseBy(*by)
		if err != nil {
			return vectors.Options{}, err
		}
		return vectors.Options{
			Params:   novelty.Params{K: *k, D: *d, By: b},
			Sampling: vectors.Sampling{Enabled: *sampling, Level: *level, Window: *window},
		}, nil
	}
}
