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

// SeriesSet is one recorded evaluation set: a folder of testdata with a
// manifest.json, its programs in recording order, and the programs held out
// of tuning.
type SeriesSet struct {
	Name string
	// Dir is the folder under internal/testdata.
	Dir      string
	Programs []string
	heldOut  []string
}

// Series800 is series/: four programs, 32 stable and 10 changed profiles
// each, 4 s of CPU at 250 Hz (about 800 samples) a profile.
var Series800 = SeriesSet{
	Name:     "800 samples",
	Dir:      "novelty/series",
	Programs: []string{"logindex", "rideshare", "thumbnails", "codefmt"},
	heldOut:  []string{"thumbnails", "codefmt"},
}

// Series2k is series2k/ (record-2k.sh): six programs, distinct runs (seed
// 2) of the four of series/ and two more (sitegen, vault) never used before
// it, 8 s of CPU at 250 Hz (about 2,000 samples) a profile.
var Series2k = SeriesSet{
	Name:     "2,000 samples",
	Dir:      "novelty/series2k",
	Programs: []string{"logindex", "rideshare", "thumbnails", "codefmt", "sitegen", "vault"},
	heldOut:  []string{"thumbnails", "codefmt", "sitegen", "vault"},
}

// Series3 is series3/ (record-3.sh): new runs (seed 3) of series2k's six
// programs at the same size, 24 stable profiles and 2 changed ones per
// change each. It was recorded after the σ score's predictive spread was
// chosen (on logindex and rideshare of series/ and series2k/) to judge it
// on profiles no choice saw.
var Series3 = SeriesSet{
	Name:     "2,000 samples, seed 3",
	Dir:      "novelty/series3",
	Programs: Series2k.Programs,
	heldOut:  Series2k.heldOut,
}

// SeriesPrograms are series/'s programs, in recording order.
var SeriesPrograms = Series800.Programs

// HeldOut reports whether a program's series is held out of tuning: the
// scorer's constants were chosen on logindex and rideshare (of series/)
// only.
func HeldOut(program string) bool { return slices.Contains(Series2k.heldOut, program) }

// HeldOut reports whether program is one of s's held-out programs.
func (s SeriesSet) HeldOut(program string) bool { return slices.Contains(s.heldOut, program) }

// Manifest returns every profile of s: per program its stable profiles in
// recording order, then its changed ones. It fails tb when the set is
// missing.
func (s SeriesSet) Manifest(tb testing.TB) []SeriesEntry {
	tb.Helper()
	var es []SeriesEntry
	file := s.Dir + "/manifest.json"
	if err := json.Unmarshal(testdataRead(tb, file), &es); err != nil {
		tb.Fatalf("%s: %v", file, err)
	}
	for _, e := range es {
		if !slices.Contains(s.Programs, e.Series) {
			tb.Fatalf("%s: %s is in series %q, not one of %v", file, e.File, e.Series, s.Programs)
		}
	}
	return es
}

// Read returns the pprof bytes of e, one of s's profiles.
func (s SeriesSet) Read(tb testing.TB, e SeriesEntry) []byte {
	tb.Helper()
	return testdataRead(tb, s.Dir+"/"+e.File)
}

// SeriesManifest returns every profile of series/ (Series800.Manifest).
func SeriesManifest(tb testing.TB) []SeriesEntry {
	tb.Helper()
	return Series800.Manifest(tb)
}

// ReadSeries returns the pprof bytes of e, a profile of series/.
func ReadSeries(tb testing.TB, e SeriesEntry) []byte {
	tb.Helper()
	return Series800.Read(tb, e)
}
