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
	sampling := fs.Bool("novelty-sampling", false, "keep only the totals, labels and vector of a profile that is not novel against its series' last profiles (the first of each window, and novel ones, are kept whole)")
	perDay := fs.Float64("novelty-false-alarms-per-day", novelty.DefaultFalseAlarmsPerDay, "sampling's sensitivity: unchanged profiles a day a series may keep whole as novel")
	interval := fs.Duration("novelty-push-interval", novelty.DefaultInterval, "how often a series pushes a profile, for -novelty-false-alarms-per-day")
	threshold := fs.Float64("novelty-sampling-threshold", 0, "removed: sampling decides with the surprise score; use -novelty-false-alarms-per-day")
	window := fs.Duration("novelty-sampling-window", vectors.DefaultSamplingWindow, "period in which a series' first profile is kept whole")
	return func() (vectors.Options, error) {
		if *threshold != 0 {
			return vectors.Options{}, errors.New("-novelty-sampling-threshold was a cosine distance, and sampling now decides with the surprise score: set -novelty-false-alarms-per-day (default 1) and -novelty-push-interval instead")
		}
		b, err := novelty.ParseBy(*by)
		if err != nil {
			return vectors.Options{}, err
		}
		return vectors.Options{
			Params:   novelty.Params{K: *k, D: *d, By: b},
			Sampling: vectors.Sampling{Enabled: *sampling, FalseAlarmsPerDay: *perDay, Interval: *interval, Window: *window},
		}, nil
	}
}
