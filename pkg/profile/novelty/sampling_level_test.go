// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package novelty

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	noveltydata "github.com/emberscope/emberscope/internal/fixtures/noveltydata"
)

// samplingKinds are the changes sampling at ingest must keep whole: a
// steady or a noisy phase up 10 points or more, a new hot function.
var samplingKinds = []string{"steady", "noisy", "hot"}

// samplingKept counts, per kind of samplingKinds, the changes of 10 points
// or more whose surprise level is above level (kept whole) and all of
// them; and the stable profiles kept whole.
type samplingKept struct {
	kept, of             map[string]int
	lowest               map[string]float64
	stableKept, stableOf int
}

func keptAt(p shortPart, level float64) samplingKept {
	r := samplingKept{kept: map[string]int{}, of: map[string]int{}, lowest: map[string]float64{}}
	for _, kind := range samplingKinds {
		r.lowest[kind] = math.Inf(1)
		for _, a := range []float64{0.10, 0.15, 0.30} {
			for _, x := range p.changedLevel[changeKey(kind, a)] {
				r.of[kind]++
				if x > level {
					r.kept[kind]++
				}
				r.lowest[kind] = min(r.lowest[kind], x)
			}
		}
	}
	r.stableOf = len(p.stableLevel)
	for _, x := range p.stableLevel {
		if x > level {
			r.stableKept++
		}
	}
	return r
}

func (r samplingKept) String() string {
	lo, hi := clopperPearson(r.stableKept, r.stableOf)
	s := fmt.Sprintf("unchanged profiles kept whole %d of %d (%.2f, 95 %% %.2f–%.2f); changes of 10 points or more kept:", r.stableKept, r.stableOf, float64(r.stableKept)/float64(max(1, r.stableOf)), lo, hi)
	for _, kind := range samplingKinds {
		s += fmt.Sprintf(" %s %d of %d (lowest level %.2f)", kind, r.kept[kind], r.of[kind], r.lowest[kind])
	}
	return s
}

// TestSamplingLevelChosenOnTuning is how DefaultSamplingLevel was chosen,
// on the tuning programs only (logindex, rideshare: their series2k and
// series3 recordings cut into profiles of 1,000 samples, as
// TestSurpriseEvaluation cuts them): the largest bar, in steps of 0.1,
// below the surprise level of every change of 10 points or more there.
// The held-out programs' results are TestSurpriseOnHeldoutPrograms' and
// TestSurpriseEvaluation's.
func TestSamplingLevelChosenOnTuning(t *testing.T) {
	tuning := poolShort(10, func(p string) bool { return !noveltydata.Series2k.HeldOut(p) }, surpriseWith(defaultSurprise), false)
	var lowest []float64
	for _, kind := range samplingKinds {
		for _, a := range []float64{0.10, 0.15, 0.30} {
			lowest = append(lowest, tuning.changedLevel[changeKey(kind, a)]...)
		}
	}
	require.GreaterOrEqual(t, len(lowest), 48, "tuning changes of 10 points or more at %.0f samples", tuning.samples)
	low := slices.Min(lowest)
	bar := math.Floor(low*10-1e-9) / 10
	t.Logf("tuning programs at %.0f samples: %s", tuning.samples, keptAt(tuning, bar))
	require.InDelta(t, bar, DefaultSamplingLevel, 1e-9, "the largest bar in steps of 0.1 below the lowest tuning change (%.3f)", low)
	require.Equal(t, keptAt(tuning, bar).of, keptAt(tuning, bar).kept, "every tuning change kept")
}
