// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package novelty

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	noveltydata "github.com/emberscope/emberscope/internal/fixtures/noveltydata"
	"github.com/emberscope/emberscope/pkg/profile/flame"
)

// seriesProfile is one profile of the evaluation series with its vector.
type seriesProfile struct {
	noveltydata.SeriesEntry
	v Vector
}

// seriesKey names one loaded series set: the set and the vectors' params.
type seriesKey struct {
	set string
	p   Params
}

// loadedSeries keeps each set loadSeries read: several tests evaluate the
// same set, and parsing and vectorising its profiles is most of their cost.
// The tests only read what it holds.
var loadedSeries = struct {
	sync.Mutex
	sets map[seriesKey]map[string][]seriesProfile
}{sets: map[seriesKey]map[string][]seriesProfile{}}

// loadSeries reads the evaluation series of set, per program: stable
// profiles in recording order, then the changed ones.
func loadSeries(t testing.TB, set noveltydata.SeriesSet, p Params) map[string][]seriesProfile {
	t.Helper()
	loadedSeries.Lock()
	defer loadedSeries.Unlock()
	key := seriesKey{set.Name, p}
	if out, ok := loadedSeries.sets[key]; ok {
		return out
	}
	out := map[string][]seriesProfile{}
	defer func() {
		if !t.Failed() {
			loadedSeries.sets[key] = out
		}
	}()
	// The set's stack counts (counts.gob.gz) make the same trees as its
	// pprof files would (flametest.FromProfile: every line a frame, the
	// cpu value), without parsing pprof, which cost most of the time.
	counts := set.Counts(t)
	manifest := set.Manifest(t)
	require.Len(t, counts.Recordings, len(manifest), "%s: counts.gob.gz against manifest.json", set.Dir)
	for i, r := range counts.Recordings {
		require.Equal(t, manifest[i].File, r.File, "%s: counts.gob.gz against manifest.json", set.Dir)
		tr := flame.New()
		names := map[int32]int32{}
		var stack []int32
		for _, s := range r.Samples {
			if s[1] == 0 {
				continue
			}
			stack = stack[:0]
			for _, f := range counts.Stacks[s[0]] {
				id, ok := names[f]
				if !ok {
					id = tr.Intern(counts.Functions[f])
					names[f] = id
				}
				stack = append(stack, id)
			}
			tr.InsertStack(flame.Root, int64(s[1])*r.Period, stack)
		}
		require.Positive(t, tr.Total(), r.File)
		out[r.Series] = append(out[r.Series], seriesProfile{SeriesEntry: manifest[i], v: mustVector(t, flame.DropFrames(tr, recorderFrames), p)})
	}
	return out
}

// method is a way of scoring evaluated on the series.
type method struct {
	name  string
	opts  Options
	sigma *sigmaParams
	// calibrate scores each profile by its cosine score's standard score
	// against the series' own past cosine scores.
	calibrate bool
}

// scoredProfile is one evaluated score.
type scoredProfile struct {
	program, change string
	amount, score   float64
	novel           bool
	name            string
	changes         []Change
}

// snapshot returns a copy of the series that scores on without changing s:
// Score only appends to or replaces the elements of these slices and never
// changes a vector's contents, so copying the slices is enough.
func (s *Series) snapshot() *Series {
	c := *s
	c.ring = slices.Clone(s.ring)
	c.ringSeq = slices.Clone(s.ringSeq)
	c.clusters = slices.Clone(s.clusters)
	return &c
}

// scoreSeries scores every program's stable series in order (each profile
// after the warm-up is a stable score) and each changed profile against the
// program's whole stable history (changed profiles are not history).
func scoreSeries(t testing.TB, programs []string, series map[string][]seriesProfile, m method) (stable, changed []scoredProfile) {
	t.Helper()
	newSeries := func() *Series {
		s, err := NewSeries(m.opts)
		require.NoError(t, err)
		if m.sigma != nil {
			s.sigma = *m.sigma
		}
		return s
	}
	for _, prog := range programs {
		s := newSeries()
		var past []float64 // cosine scores, for calibrate
		calibrated := func(x float64) float64 {
			if len(past) < 2 {
				return 0
			}
			mean, sd := meanSD(past)
			return (x - mean) / max(sd, 1e-3)
		}
		for _, p := range series[prog] {
			if p.Change != "" {
				continue
			}
			warm := s.seen >= s.opts.WarmUp
			r, ok := s.Score(p.v)
			require.True(t, ok)
			score := r.Score
			if m.calibrate {
				score = calibrated(r.Score)
				if s.seen > 1 {
					past = append(past, r.Score)
				}
			}
			if warm {
				stable = append(stable, scoredProfile{program: prog, score: score, novel: r.Novel, name: p.File})
			}
		}
		// s now holds the program's whole stable history: each changed
		// profile is scored against a copy of it, as against a series that
		// scored the same stable profiles in the same order.
		for _, p := range series[prog] {
			if p.Change == "" {
				continue
			}
			r, _ := s.snapshot().Score(p.v)
			score := r.Score
			if m.calibrate {
				score = calibrated(r.Score)
			}
			changed = append(changed, scoredProfile{program: prog, change: p.Change, amount: p.Amount, score: score, novel: r.Novel, name: p.File, changes: r.Changes})
		}
	}
	return stable, changed
}

func meanSD(xs []float64) (float64, float64) {
	var mean, ss float64
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(ss / float64(max(len(xs)-1, 1)))
}

func scoresOf(ps []scoredProfile, keep func(scoredProfile) bool) []float64 {
	var out []float64
	for _, p := range ps {
		if keep(p) {
			out = append(out, p.score)
		}
	}
	return out
}

// aucOrNaN is rocAUC, NaN when either side is empty.
func aucOrNaN(pos, neg []float64) float64 {
	if len(pos) == 0 || len(neg) == 0 {
		return math.NaN()
	}
	return rocAUC(pos, neg)
}

// beforeSigma is the σ score before issue 22's predictive spread: the move
// in units of σ_f alone.
var beforeSigma = func() sigmaParams { sp := defaultSigma; sp.predictive = false; return sp }()

// changeColumns are the evaluation table's change columns.
var changeColumns = []struct {
	change string
	amount float64
}{
	{"steady", 0.05}, {"steady", 0.10}, {"steady", 0.15}, {"steady", 0.30},
	{"noisy", 0.05}, {"noisy", 0.10}, {"noisy", 0.15}, {"noisy", 0.30},
	{"hot", 0.10}, {"program", 1},
}

// evalRow is one method on one part of the set: ROC-AUC per change column
// (changed profiles against every stable score of the part), the
// false-positive rate at the threshold on the part's stable profiles.
type evalRow struct {
	auc           []float64
	fp, nStable   int
	flagged, nChg int
	maxStable     float64
}

func evalPart(stable, changed []scoredProfile, in func(program string) bool) evalRow {
	st := scoresOf(stable, func(p scoredProfile) bool { return in(p.program) })
	var r evalRow
	for _, c := range changeColumns {
		ch := scoresOf(changed, func(p scoredProfile) bool {
			return in(p.program) && p.change == c.change && math.Abs(p.amount-c.amount) < 1e-9
		})
		r.auc = append(r.auc, aucOrNaN(ch, st))
	}
	for _, p := range stable {
		if in(p.program) {
			r.nStable++
			if p.novel {
				r.fp++
			}
		}
	}
	for _, p := range changed {
		if in(p.program) {
			r.nChg++
			if p.novel {
				r.flagged++
			}
		}
	}
	if len(st) > 0 {
		r.maxStable = slices.Max(st)
	}
	return r
}

func (r evalRow) cells(flags bool) string {
	var b strings.Builder
	for _, a := range r.auc {
		fmt.Fprintf(&b, " %.3f |", a)
	}
	if flags {
		fmt.Fprintf(&b, " %d / %d (%.1f %%) | %d / %d | %.2f |", r.fp, r.nStable, 100*float64(r.fp)/float64(r.nStable), r.flagged, r.nChg, r.maxStable)
	} else {
		fmt.Fprintf(&b, " – | – | %.2f |", r.maxStable)
	}
	return b.String()
}

const seriesHeader = "| method | part | steady 5 | steady 10 | steady 15 | steady 30 | noisy 5 | noisy 10 | noisy 15 | noisy 30 | new hot 10 % | other program | stable flagged (FPR) | changed flagged | highest stable |\n" +
	"|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"

func anyProg(string) bool { return true }

// TestEvaluationOnSeries is the evaluation of BENCHMARKS.md on four real
// programs recorded as naturally varying series (internal/fixtures/novelty
// /series): ROC-AUC per change size and kind, per program, and the
// false-positive rate at the default threshold on the stable series, for
// the default σ score and the cosine score it replaced (with -eval.full,
// also the alternatives it was chosen over). The σ
// score's constants were chosen on the tuning part (logindex, rideshare);
// the targets are asserted on the held-out part (thumbnails, codefmt) and
// on the whole set.
func TestEvaluationOnSeries(t *testing.T) {
	set := noveltydata.Series800
	series := loadSeries(t, set, Params{})
	for _, prog := range set.Programs {
		n := 0
		for _, p := range series[prog] {
			if p.Change == "" {
				n++
			}
		}
		require.GreaterOrEqual(t, n, 30, "stable profiles of %s", prog)
		require.Len(t, series[prog], n+10, "changed profiles of %s", prog)
	}
	methods := []method{{name: "σ, top 3, functions, packages and inclusive (default)", opts: Options{Method: MethodSigma}}}
	if *evalFull {
		// The variants the default was chosen over: printed, not asserted.
		methods = append(methods,
			method{name: "σ, spread σ alone (before issue 22's predictive spread)", opts: Options{Method: MethodSigma}, sigma: &beforeSigma},
			method{name: "σ, top 3, functions and packages", opts: Options{Method: MethodSigma}, sigma: &sigmaParams{floorAbs: sigmaFloorAbs, floorRel: sigmaFloorRel, prior: sigmaPrior, top: 3, groups: true, predictive: true}},
			method{name: "σ, top 3, functions only", opts: Options{Method: MethodSigma}, sigma: &sigmaParams{floorAbs: sigmaFloorAbs, floorRel: sigmaFloorRel, prior: sigmaPrior, top: 3, predictive: true}},
			method{name: "σ, top 1 (max |z|)", opts: Options{Method: MethodSigma}, sigma: &sigmaParams{floorAbs: sigmaFloorAbs, floorRel: sigmaFloorRel, prior: sigmaPrior, top: 1, groups: true, inclusive: true, predictive: true}},
			method{name: "σ, all features (Mahalanobis)", opts: Options{Method: MethodSigma}, sigma: &sigmaParams{floorAbs: sigmaFloorAbs, floorRel: sigmaFloorRel, prior: sigmaPrior, top: 1 << 20, groups: true, inclusive: true, predictive: true}},
			method{name: "cosine, calibrated by past scores", opts: Options{Method: MethodCosine}, calibrate: true})
	}
	def := evalTables(t, set, series, methods)
	heldOut := set.HeldOut

	// The issue's targets: ROC-AUC ≥ 0.99 from 10 points in steady phases
	// and ≥ 0.95 at 5 (held out; pooled, 5 points reach 0.82: rideshare's
	// scooter trips share their HTTP and sorting code with the other trips),
	// FPR ≤ 1 % at the default threshold.
	held := evalPart(def.stable, def.changed, heldOut)
	all := evalPart(def.stable, def.changed, anyProg)
	requireAUCTargets(t, held, all, 0.82)
	require.LessOrEqual(t, float64(all.fp), 0.01*float64(all.nStable), "false positives at the default threshold on the stable series")
	// The σ score ranks every steady change of 10 points and more, and every
	// noisy one from 15, above the cosine score it replaced.
	cosStable, cosChanged := scoreSeries(t, set.Programs, series, method{opts: Options{Method: MethodCosine}})
	before := evalPart(cosStable, cosChanged, anyProg)
	t.Logf("| cosine (before) | all |%s", before.cells(true))
	for _, i := range []int{1, 2, 6, 7} {
		require.Greater(t, all.auc[i], before.auc[i], "σ above cosine for %s %.0f", changeColumns[i].change, 100*changeColumns[i].amount)
	}
	requireNamesRise(t, def.changed)
}

// requireNamesRise checks what a novel profile names: every flagged new hot
// function and steady change names, among its three moves, a function or
// package that rose.
func requireNamesRise(t *testing.T, changed []scoredProfile) {
	t.Helper()
	for _, c := range changed {
		if c.novel && (c.change == "steady" || c.change == "hot") {
			require.Len(t, c.changes, DefaultChanges, c.name)
			require.Positive(t, slices.MaxFunc(c.changes, func(a, b Change) int { return cmpFloat(a.Sigma, b.Sigma) }).Sigma, c.name)
		}
	}
}

// scoredSet is one method's scores on a set.
type scoredSet struct{ stable, changed []scoredProfile }

// evalTables scores set with every method, logs the tables (per method and
// part, per program for the first method, every changed profile's score)
// and returns the first method's scores.
func evalTables(t *testing.T, set noveltydata.SeriesSet, series map[string][]seriesProfile, methods []method) scoredSet {
	t.Helper()
	heldOut := set.HeldOut
	tuning := func(p string) bool { return !set.HeldOut(p) }
	var rows []string
	var def scoredSet
	for i, m := range methods {
		stable, changed := scoreSeries(t, set.Programs, series, m)
		if i == 0 {
			def.stable, def.changed = stable, changed
		}
		for _, part := range []struct {
			name string
			in   func(string) bool
		}{{"tuning", tuning}, {"held-out", heldOut}, {"all", anyProg}} {
			rows = append(rows, fmt.Sprintf("| %s | %s |%s", m.name, part.name, evalPart(stable, changed, part.in).cells(!m.calibrate)))
		}
	}
	t.Logf("%s (%s), ROC-AUC per change (points of CPU share moved), changed profiles against every stable score of the part:\n%s\n%s", set.Dir, set.Name, seriesHeader, strings.Join(rows, "\n"))

	// Per program, the default method.
	var prow []string
	for _, prog := range set.Programs {
		one := func(p string) bool { return p == prog }
		st := scoresOf(def.stable, func(p scoredProfile) bool { return p.program == prog })
		all := scoresOf(def.changed, func(p scoredProfile) bool { return p.program == prog })
		steady := scoresOf(def.changed, func(p scoredProfile) bool { return p.program == prog && p.change == "steady" })
		noisy := scoresOf(def.changed, func(p scoredProfile) bool { return p.program == prog && p.change == "noisy" })
		r := evalPart(def.stable, def.changed, one)
		part := "tuning"
		if heldOut(prog) {
			part = "held-out"
		}
		prow = append(prow, fmt.Sprintf("| %s | %s | %.3f | %.3f | %.3f | %d / %d | %d / %d | %.2f |", prog, part,
			rocAUC(all, st), rocAUC(steady, st), rocAUC(noisy, st), r.fp, r.nStable, r.flagged, r.nChg, r.maxStable))
	}
	t.Logf("%s, per program, σ score (default):\n| program | part | ROC-AUC all changes | steady | noisy | stable flagged | changed flagged | highest stable |\n|---|---|---|---|---|---|---|---|\n%s", set.Dir, strings.Join(prow, "\n"))
	var lines []string
	for _, c := range def.changed {
		var moved []string
		for _, ch := range c.changes {
			moved = append(moved, fmt.Sprintf("%s %.1f%%→%.1f%% (%+.1fσ)", ch.Name, 100*ch.From, 100*ch.To, ch.Sigma))
		}
		lines = append(lines, fmt.Sprintf("%-32s %6.2f %v %s", c.name, c.score, c.novel, strings.Join(moved, ", ")))
	}
	t.Logf("%s, changed profiles, σ score:\n%s", set.Dir, strings.Join(lines, "\n"))
	return def
}

// requireAUCTargets asserts the issue's ROC-AUC targets: ≥ 0.99 for steady
// changes of 10 points and more (held out and pooled), ≥ 0.95 at 5 points
// held out and ≥ pooled5 pooled, ≥ 0.99 for new hot functions and other
// programs.
func requireAUCTargets(t *testing.T, held, all evalRow, pooled5 float64) {
	t.Helper()
	for i, c := range changeColumns {
		switch {
		case c.change == "steady" && c.amount >= 0.10:
			require.GreaterOrEqual(t, held.auc[i], 0.99, "held-out: ROC-AUC of steady changes of %.0f points", 100*c.amount)
			require.GreaterOrEqual(t, all.auc[i], 0.99, "all: ROC-AUC of steady changes of %.0f points", 100*c.amount)
		case c.change == "steady":
			require.GreaterOrEqual(t, held.auc[i], 0.95, "held-out: ROC-AUC of steady changes of 5 points")
			require.GreaterOrEqual(t, all.auc[i], pooled5, "all: ROC-AUC of steady changes of 5 points")
		case c.change == "hot", c.change == "program":
			require.GreaterOrEqual(t, all.auc[i], 0.99, "all: ROC-AUC of %s changes", c.change)
		}
	}
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// requireSeriesShape fails unless every program of set has at least 24
// stable profiles, perColumn changed ones in each change column (at least
// one for perColumn 1) and one of another program: a fixture that lost
// files fails instead of scoring fewer profiles.
func requireSeriesShape(t *testing.T, set noveltydata.SeriesSet, series map[string][]seriesProfile, perColumn int) {
	t.Helper()
	for _, prog := range set.Programs {
		stable := 0
		for _, p := range series[prog] {
			if p.Change == "" {
				stable++
			}
		}
		require.GreaterOrEqual(t, stable, 24, "stable profiles of %s", prog)
		for _, c := range changeColumns {
			got := 0
			for _, p := range series[prog] {
				if p.Change == c.change && math.Abs(p.Amount-c.amount) < 1e-9 {
					got++
				}
			}
			if perColumn == 1 || c.change == "program" {
				require.GreaterOrEqual(t, got, 1, "%s: no %s change of %.2f", prog, c.change, c.amount)
			} else {
				require.Equal(t, perColumn, got, "%s: %s changes of %.2f", prog, c.change, c.amount)
			}
		}
	}
}

// TestEvaluationOnSeries2k is the evaluation of BENCHMARKS.md on series2k:
// profiles of about 2,000 samples (8 s of CPU at 250 Hz), new runs of the
// four programs of series/ and two programs (sitegen, vault) that no
// constant was chosen on. The σ score's constants were fixed before these
// recordings existed; the issue's targets are asserted on the held-out
// part (thumbnails, codefmt, sitegen, vault) and on the whole set.
func TestEvaluationOnSeries2k(t *testing.T) {
	set := noveltydata.Series2k
	series := loadSeries(t, set, Params{})
	requireSeriesShape(t, set, series, 1)
	def := evalTables(t, set, series, withVariants(
		method{name: "σ, top 3, functions, packages and inclusive (default)", opts: Options{Method: MethodSigma}},
		method{name: "σ, spread σ alone (before issue 22's predictive spread)", opts: Options{Method: MethodSigma}, sigma: &beforeSigma},
		method{name: "cosine (before)", opts: Options{Method: MethodCosine}}))
	// The FPR target (≤ 1 %) was NOT met by the first run (σ alone): it
	// flagged sitegen's and vault's stable profiles at 7.13 and 7.01 σ
	// against the 7 σ threshold (2 / 114 = 1.8 %, held out 2 / 76). The
	// predictive spread brings them to 6.51 and 6.65 σ (0 / 114), but these
	// two profiles were known when it was chosen: the fresh judgement of
	// the change is series3's (TestEvaluationOnSeries3).
	requireIssueTargets(t, set, def)
}

// requireIssueTargets asserts issue 22's targets on a 2,000-sample set's
// default scores: steady ≥ 10 points ≥ 0.99 and steady 5 ≥ 0.95 (held out
// and pooled), at most 1 % of the stable profiles flagged, and the moved
// functions named.
func requireIssueTargets(t *testing.T, set noveltydata.SeriesSet, def scoredSet) {
	t.Helper()
	held := evalPart(def.stable, def.changed, set.HeldOut)
	all := evalPart(def.stable, def.changed, anyProg)
	requireAUCTargets(t, held, all, 0.95)
	require.LessOrEqual(t, float64(all.fp), 0.01*float64(all.nStable), "false positives at the default threshold on the stable series (of %d)", all.nStable)
	requireNamesRise(t, def.changed)
}

// TestEvaluationOnSeries3 is the evaluation of BENCHMARKS.md on series3:
// fresh runs (seed 3, recorded by record-3.sh after the change was chosen)
// of series2k's six programs at about 2,000 samples, two changed profiles
// per change column. The predictive spread √(1 + 1/n) was chosen on the
// tuning programs (logindex, rideshare) of series/ and series2k/ only;
// these targets were written before the first run.
func TestEvaluationOnSeries3(t *testing.T) {
	set := noveltydata.Series3
	series := loadSeries(t, set, Params{})
	requireSeriesShape(t, set, series, 2)
	def := evalTables(t, set, series, withVariants(
		method{name: "σ, predictive spread (default)", opts: Options{Method: MethodSigma}},
		method{name: "σ, spread σ alone (before)", opts: Options{Method: MethodSigma}, sigma: &beforeSigma},
		method{name: "cosine", opts: Options{Method: MethodCosine}}))
	requireIssueTargets(t, set, def)
}

// withVariants is the default method, and with -eval.full the variants
// the tables compare it with (printed, never asserted).
func withVariants(def method, variants ...method) []method {
	if !*evalFull {
		return []method{def}
	}
	return append([]method{def}, variants...)
}
