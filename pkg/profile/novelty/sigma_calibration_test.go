// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package novelty

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	noveltydata "github.com/emberscope/emberscope/internal/fixtures/noveltydata"
)

// nullScores scores each stable profile of the tuning programs against the
// h stable profiles before it (cyclically, so every profile is scored at
// every history length): chance scores, as a series of unchanged profiles
// gets them, at a history length fixed instead of growing from the warm-up.
// meanZ2 is the mean z² of the features of share above 1 %, which is 1 when
// the spread the score divides by is the spread of a new profile's share.
func nullScores(set noveltydata.SeriesSet, series map[string][]seriesProfile, programs []string, h int, sp sigmaParams) (scores []float64, meanZ2 float64) {
	var z2, nz float64
	for _, prog := range programs {
		var stable []Vector
		for _, p := range series[prog] {
			if p.Change == "" {
				stable = append(stable, p.v)
			}
		}
		for j := range stable {
			hist := make([]Vector, 0, h)
			for i := 1; i <= h; i++ {
				hist = append(hist, stable[(j-i+len(stable))%len(stable)])
			}
			fs := sigmaFeatures(&stable[j], hist, sp)
			scores = append(scores, sigmaScore(fs, sp.top))
			for _, f := range fs {
				if f.mean > 0.01 {
					z2 += f.z * f.z
					nz++
				}
			}
		}
	}
	return scores, z2 / nz
}

// TestSigmaCalibrationOnTuning is the evidence the predictive spread was
// chosen on (BENCHMARKS.md): on the tuning programs (logindex, rideshare)
// of series/ and series2k/, chance scores against histories of 5 to 20
// profiles. Dividing by σ alone, the mean z² at 800 samples falls from 1.29
// at 5 profiles to 1.01 at 20: a short history underrates the spread of a
// new share by the uncertainty of its own mean. The predictive spread
// σ·√(1 + 1/n) brings the short histories' chance scores down, so that the
// default threshold flags at most 1 % of them.
func TestSigmaCalibrationOnTuning(t *testing.T) {
	tuning := []string{"logindex", "rideshare"}
	var rows []string
	for _, set := range []noveltydata.SeriesSet{noveltydata.Series800, noveltydata.Series2k} {
		series := loadSeries(t, set, Params{})
		var flagged, n int
		for _, m := range []struct {
			name string
			sp   sigmaParams
		}{{"σ alone (before)", beforeSigma}, {"predictive (default)", defaultSigma}} {
			for _, h := range []int{5, 8, 12, 20} {
				scores, z2 := nullScores(set, series, tuning, h, m.sp)
				slices.Sort(scores)
				over := 0
				for _, s := range scores {
					if s > DefaultThreshold {
						over++
					}
				}
				if m.sp.predictive {
					flagged += over
					n += len(scores)
				}
				rows = append(rows, fmt.Sprintf("| %s | %s | %d | %.2f | %.2f | %.2f | %d / %d |", set.Name, m.name, h, z2,
					scores[len(scores)*95/100], scores[len(scores)-1], over, len(scores)))
			}
		}
		if flagged > n/100 {
			t.Errorf("%s, tuning: %d of %d chance scores above %v σ with the predictive spread", set.Name, flagged, n, float64(DefaultThreshold))
		}
	}
	t.Logf("chance scores of the tuning programs' stable profiles against the h before them:\n| set | spread | h | mean z² (share > 1 %%) | 95th percentile | highest | above %v σ |\n|---|---|---|---|---|---|---|\n%s",
		float64(DefaultThreshold), strings.Join(rows, "\n"))
}
