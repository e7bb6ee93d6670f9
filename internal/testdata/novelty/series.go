// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package noveltydata

import (
	"encoding/json"
	"slices"
	"testing"
)

// SeriesEntry is one profile of the evaluation series (series/), as
// series/manifest.json lists it: recorded by series/recorder.
type SeriesEntry struct {
	File    string `json:"file"`
	Program string `json:"program"`
	Series  string `json:"series"`
	// Change is "" for a stable profile, else "steady", "noisy", "hot" or
	// "program".
	Change string  `json:"change"`
	Amount float64 `json:"amount"`
	// Phase is the phase that moved (or was added); Function the function
	// its time is spent in first.
	Phase    string             `json:"phase"`
	Function string             `json:"function"`
	Shares   map[string]float64 `json:"shares"`
}

// SeriesPrograms are the recorded programs, in recording order.
var SeriesPrograms = []string{"logindex", "rideshare", "thumbnails", "codefmt"}

// HeldOut reports whether a program's series is held out of tuning: the
// scorer's constants were chosen on logindex and rideshare only.
func HeldOut(program string) bool { return program == "thumbnails" || program == "codefmt" }

// SeriesManifest returns every profile of the evaluation series: per
// program its stable profiles in recording order, then its changed ones.
func SeriesManifest(tb testing.TB) []SeriesEntry {
	tb.Helper()
	var es []SeriesEntry
	if err := json.Unmarshal(testdataRead(tb, "novelty/series/manifest.json"), &es); err != nil {
		tb.Fatalf("novelty/series/manifest.json: %v", err)
	}
	for _, e := range es {
		if !slices.Contains(SeriesPrograms, e.Series) {
			tb.Fatalf("novelty/series/manifest.json: %s is in series %q, not one of %v", e.File, e.Series, SeriesPrograms)
		}
	}
	return es
}

// ReadSeries returns the pprof bytes of e.
func ReadSeries(tb testing.TB, e SeriesEntry) []byte {
	tb.Helper()
	return testdataRead(tb, "novelty/series/"+e.File)
}
