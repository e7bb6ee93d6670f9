// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package novelty

import (
	"flag"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	noveltydata "github.com/emberscope/emberscope/internal/fixtures/noveltydata"
)

// The surprise score's evaluation at 100 to 6,000 samples a profile. Its
// profiles are cut from the real recordings of series2k and series3 (six
// programs, 48 stable recordings of about 2,000 samples each and three per
// change): each recording's samples are shuffled and dealt into profiles
// of 100 (Go's 100 Hz profiler's 1 s), which consecutive ones sum into
// profiles of 200, 1,000 and 6,000 (2 s, 10 s, 60 s). A profile cut from a
// recording holds a random part of its samples, as a shorter recording of
// the same work would; the series' natural variation is the recordings'
// (each recording draws its own mix). Programs were split before any
// tuning (Series2k's held-out programs). The tests assert the claims on
// the held-out programs; with -eval.full they print every table, the
// tuning part's candidates included:
//
//	go test ./pkg/profile/novelty -run TestSurpriseEvaluation -v -args -eval.full
var evalFull = flag.Bool("eval.full", false, "print the surprise evaluation's full tables")

// shortDurations are the profile lengths evaluated, in profiles of
// shortSamples.
var shortDurations = []int{1, 2, 10, 60}

const (
	shortSamples = 100
	// shortPeriod is the recordings' sampling period in nanoseconds (250
	// Hz): vectors are built from values of samples × period, as a store
	// sees a CPU profile.
	shortPeriod = 4_000_000
)

// shortProfile is one profile of the evaluation.
type shortProfile struct {
	change string
	amount float64
	v      Vector
}

// shortProgram is one program's profiles at one duration.
type shortProgram struct {
	name            string
	stable, changed []shortProfile
}

// shortCuts is one program's recordings dealt into profiles of
// shortSamples: per stack id, samples.
type shortCuts struct {
	stacks [][]string
	index  map[string]int // stack id by frames joined with ";"
	// recorder says whether a function name is a recorder frame.
	recorder map[string]bool
	// funcs are the functions of the stacks (funcIndex their index), leaf
	// each stack's leaf and onStack the functions on it, each once.
	funcs     []string
	funcIndex map[string]int
	leaf      []int
	onStack   [][]int
	// memo is the id of each stack of memoOf (-1: only recorder frames).
	memoOf  *noveltydata.Counts
	memo    map[int32]int
	stable  []map[int]int64
	changed map[[2]string][]map[int]int64 // by change and amount
	order   [][2]string
}

// shortRuns cuts every run's recordings once per test binary.
var shortRuns = sync.OnceValue(func() []shortRun {
	var out []shortRun
	// Each run of a program (series2k's, series3's) is its own series: a
	// process of its own, whose phases' costs were calibrated anew.
	for _, set := range []noveltydata.SeriesSet{noveltydata.Series2k, noveltydata.Series3} {
		cuts := map[string]*shortCuts{}
		counts := set.Counts(onceTB{})
		for _, r := range counts.Recordings {
			if r.Change == "program" {
				continue
			}
			c := cuts[r.Series]
			if c == nil {
				c = &shortCuts{changed: map[[2]string][]map[int]int64{}}
				cuts[r.Series] = c
			}
			c.add(counts, r)
		}
		for _, name := range set.Programs {
			out = append(out, shortRun{name, cuts[name]})
		}
	}
	return out
})

type shortRun struct {
	name string
	cuts *shortCuts
}

// shortData returns the profiles of duration d of every run of the
// programs in accepts, each run's built once (a test reading the held-out
// programs builds none of the tuning ones).
func shortData(d int, in func(string) bool) []shortProgram {
	shortMu.Lock()
	defer shortMu.Unlock()
	var ps []shortProgram
	for i, r := range shortRuns() {
		if !in(r.name) {
			continue
		}
		k := [2]int{i, d}
		p, ok := shortBuilt[k]
		if !ok {
			p = r.cuts.program(r.name, d)
			shortBuilt[k] = p
		}
		ps = append(ps, p)
	}
	return ps
}

var (
	shortMu sync.Mutex
	// shortBuilt are the runs' programs by run (its index in shortRuns)
	// and duration.
	shortBuilt = map[[2]int]shortProgram{}
)

// onceTB lets shortData read fixtures outside a test: a missing fixture
// panics, which fails the test that first asked.
type onceTB struct{ testing.TB }

func (onceTB) Helper()                   {}
func (onceTB) Fatalf(f string, a ...any) { panic(fmt.Sprintf(f, a...)) }

// add deals one recording's samples into profiles of shortSamples (the
// rest, under shortSamples, dropped), in a shuffled order seeded by its
// file name.
func (c *shortCuts) add(counts *noveltydata.Counts, e noveltydata.CountedProfile) {
	if c.memoOf != counts {
		c.memoOf, c.memo = counts, map[int32]int{}
	}
	var samples []int
	for _, s := range e.Samples {
		// The same stack recurs in many samples and recordings: its id
		// once per set, not its frames matched against the recorder's.
		id, ok := c.memo[s[0]]
		if !ok {
			var found bool
			if id, found = c.stackID(counts.Frames(s[0])); !found {
				id = -1
			}
			c.memo[s[0]] = id
		}
		if id < 0 {
			continue
		}
		for range s[1] {
			samples = append(samples, id)
		}
	}
	rng := rand.New(rand.NewPCG(fnv64a(e.File), uint64(len(samples))))
	rng.Shuffle(len(samples), func(i, j int) { samples[i], samples[j] = samples[j], samples[i] })
	k := [2]string{e.Change, fmt.Sprint(e.Amount)}
	for i := 0; i+shortSamples <= len(samples); i += shortSamples {
		cut := map[int]int64{}
		for _, id := range samples[i : i+shortSamples] {
			cut[id]++
		}
		if e.Change == "" {
			c.stable = append(c.stable, cut)
			continue
		}
		if _, ok := c.changed[k]; !ok {
			c.order = append(c.order, k)
		}
		c.changed[k] = append(c.changed[k], cut)
	}
}

func joinStack(st []string) string { return strings.Join(st, ";") }

// stackID is the id of a stack of frames (root first) without the
// recorder's frames; false when none is left.
func (c *shortCuts) stackID(frames []string) (int, bool) {
	if c.index == nil {
		c.index = map[string]int{}
	}
	if c.recorder == nil {
		c.recorder = map[string]bool{}
	}
	var stack []string
	for _, name := range frames {
		// A name is matched against the recorder's frames once: the
		// regular expression per frame of every stack cost most of the
		// cutting under the race detector.
		drop, ok := c.recorder[name]
		if !ok {
			drop = recorderFrames.MatchString(name)
			c.recorder[name] = drop
		}
		if !drop {
			stack = append(stack, name)
		}
	}
	if len(stack) == 0 {
		return 0, false
	}
	key := joinStack(stack)
	id, ok := c.index[key]
	if !ok {
		id = len(c.stacks)
		c.index[key] = id
		c.stacks = append(c.stacks, stack)
		if c.funcIndex == nil {
			c.funcIndex = map[string]int{}
		}
		var on []int
		for _, name := range stack {
			f, ok := c.funcIndex[name]
			if !ok {
				f = len(c.funcs)
				c.funcIndex[name] = f
				c.funcs = append(c.funcs, name)
			}
			if !slices.Contains(on, f) {
				on = append(on, f)
			}
		}
		c.leaf = append(c.leaf, on[slices.Index(on, c.funcIndex[stack[len(stack)-1]])])
		c.onStack = append(c.onStack, on)
	}
	return id, true
}

// vector is the vector of the profile that sums cuts, built with b: the
// self value of each stack's leaf and the inclusive value of each function
// on it (once per stack), summed by function before the builder sees them.
func (c *shortCuts) vector(b *Builder, cuts []map[int]int64) Vector {
	b.Reset()
	self := make([]int64, len(c.funcs))
	incl := make([]int64, len(c.funcs))
	for _, cut := range cuts {
		for id, n := range cut {
			self[c.leaf[id]] += n
			for _, f := range c.onStack[id] {
				incl[f] += n
			}
		}
	}
	for f, name := range c.funcs {
		if self[f] != 0 {
			b.Add(name, float64(self[f]*shortPeriod))
		}
		if incl[f] != 0 {
			b.AddGroup(name, float64(incl[f]*shortPeriod))
		}
	}
	return b.Vector()
}

// program sums each run of d consecutive cuts of one kind into a profile.
func (c *shortCuts) program(name string, d int) shortProgram {
	b, err := NewBuilder(Params{})
	if err != nil {
		panic(err)
	}
	p := shortProgram{name: name}
	sum := func(cuts []map[int]int64) Vector { return c.vector(b, cuts) }
	for i := 0; i+d <= len(c.stable); i += d {
		p.stable = append(p.stable, shortProfile{v: sum(c.stable[i : i+d])})
	}
	for _, k := range c.order {
		cuts := c.changed[k]
		var amount float64
		fmt.Sscan(k[1], &amount)
		for i := 0; i+d <= len(cuts); i += d {
			p.changed = append(p.changed, shortProfile{change: k[0], amount: amount, v: sum(cuts[i : i+d])})
		}
	}
	return p
}

// scoreWith scores v against the history hs with sp.
func scoreWith(v *Vector, hs []Vector, sp sigmaParams) float64 {
	return max(0, levelWith(v, hs, sp))
}

// levelWith is v's surprise level (surpriseLevel, the score before it is
// clamped at 0) against hs with sp; with the σ score, its score.
func levelWith(v *Vector, hs []Vector, sp sigmaParams) float64 {
	fs := sigmaFeatures(v, hs, sp)
	if sp.surprise != nil {
		return surpriseLevel(fs, sp.surprise)
	}
	return sigmaScore(fs, sp.top)
}

// oracleHistory bounds the oracle's history.
const oracleHistory = 200

// shortScores are one method's scores on one program at one duration.
type shortScores struct {
	stable []float64
	// changed and oracle are the changed profiles' scores, by change and
	// amount; oracle scores them and the stable ones (oracleStable)
	// against every stable profile of the program, the true shares and
	// spread as far as the set knows them.
	changed, oracle map[string][]float64
	oracleStable    []float64
	// stableLevel and changedLevel are the scores' surprise levels
	// (levelWith), which sampling at ingest reads.
	stableLevel  []float64
	changedLevel map[string][]float64
}

func changeKey(change string, amount float64) string {
	return fmt.Sprintf("%s %.0f", change, amount*100)
}

// scoreShort scores a program's stable profiles in order against the last
// H before each (after a warm-up of 5), and each changed profile against
// the H stable profiles before an evenly spread position of the series.
func scoreShort(p shortProgram, sp sigmaParams, oracle bool) shortScores {
	const h, warm = DefaultHistory, DefaultWarmUp
	out := shortScores{changed: map[string][]float64{}, oracle: map[string][]float64{}, changedLevel: map[string][]float64{}}
	hist := func(i int) []Vector {
		hs := make([]Vector, 0, h)
		for j := max(0, i-h); j < i; j++ {
			hs = append(hs, p.stable[j].v)
		}
		return hs
	}
	for i := warm; i < len(p.stable); i++ {
		lv := levelWith(&p.stable[i].v, hist(i), sp)
		out.stableLevel = append(out.stableLevel, lv)
		out.stable = append(out.stable, max(0, lv))
	}
	// The oracle's history: up to oracleHistory stable profiles spread
	// over the whole run (its shares and spread as the set knows them),
	// the profile scored left out; it scores every eighth stable profile.
	var all []Vector
	var allAt []int
	if oracle {
		step := max(1, len(p.stable)/oracleHistory)
		for i := 0; i < len(p.stable); i += step {
			all = append(all, p.stable[i].v)
			allAt = append(allAt, i)
		}
		for i := 0; i < len(p.stable); i += 8 {
			others := all
			if j := slices.Index(allAt, i); j >= 0 {
				others = append(slices.Clone(all[:j]), all[j+1:]...)
			}
			out.oracleStable = append(out.oracleStable, scoreWith(&p.stable[i].v, others, sp))
		}
	}
	n := len(p.stable)
	for i, c := range p.changed {
		at := min(n, h+(i*max(1, n-h))/max(1, len(p.changed)))
		k := changeKey(c.change, c.amount)
		lv := levelWith(&c.v, hist(at), sp)
		out.changedLevel[k] = append(out.changedLevel[k], lv)
		out.changed[k] = append(out.changed[k], max(0, lv))
		if oracle && (*evalFull || c.amount == 0.10) {
			// The claims read the oracle at +10 points only.
			out.oracle[k] = append(out.oracle[k], scoreWith(&c.v, all, sp))
		}
	}
	return out
}

// shortPart pools the scores of a part's programs at one duration.
type shortPart struct {
	samples  float64 // mean samples a stable profile
	programs int
	shortScores
}

func poolShort(d int, in func(string) bool, sp sigmaParams, oracle bool) shortPart {
	return poolPrograms(shortData(d, in), in, sp, oracle)
}

// poolPrograms pools the scores of the programs of data that in accepts.
func poolPrograms(data []shortProgram, in func(string) bool, sp sigmaParams, oracle bool) shortPart {
	part := shortPart{shortScores: shortScores{changed: map[string][]float64{}, oracle: map[string][]float64{}, changedLevel: map[string][]float64{}}}
	var samples, n float64
	for _, p := range data {
		if !in(p.name) || len(p.stable) <= DefaultWarmUp {
			continue
		}
		part.programs++
		for _, s := range p.stable {
			samples += s.v.Samples
			n++
		}
		s := scoreShort(p, sp, oracle)
		part.stable = append(part.stable, s.stable...)
		part.stableLevel = append(part.stableLevel, s.stableLevel...)
		for k, xs := range s.changedLevel {
			part.changedLevel[k] = append(part.changedLevel[k], xs...)
		}
		part.oracleStable = append(part.oracleStable, s.oracleStable...)
		for k, xs := range s.changed {
			part.changed[k] = append(part.changed[k], xs...)
		}
		for k, xs := range s.oracle {
			part.oracle[k] = append(part.oracle[k], xs...)
		}
	}
	part.samples = samples / max(n, 1)
	return part
}

// rise is the AUC of changes of amount (steady and noisy pooled) against
// the stable scores.
func (p shortPart) rise(amount float64, oracle bool) float64 {
	m, neg := p.changed, p.stable
	if oracle {
		m, neg = p.oracle, p.oracleStable
	}
	pos := append(slices.Clone(m[changeKey("steady", amount)]), m[changeKey("noisy", amount)]...)
	return aucOrNaN(pos, neg)
}

// alarms counts the stable scores above threshold.
func (p shortPart) alarms(threshold float64) int {
	n := 0
	for _, s := range p.stable {
		if s > threshold {
			n++
		}
	}
	return n
}

// clopperPearson is the two-sided 95 % interval of a rate of k in n.
func clopperPearson(k, n int) (lo, hi float64) {
	// Bisection on the binomial tail (exact, via the regularised beta's
	// definition as a sum).
	tail := func(p float64, from int) float64 { // P(X ≥ from)
		var s float64
		for i := from; i <= n; i++ {
			s += math.Exp(lchoose(n, i) + float64(i)*math.Log(p) + float64(n-i)*math.Log1p(-p))
		}
		return s
	}
	solve := func(f func(float64) float64) float64 {
		a, b := 0.0, 1.0
		for range 60 {
			m := (a + b) / 2
			if f(m) < 0 {
				a = m
			} else {
				b = m
			}
		}
		return (a + b) / 2
	}
	if k > 0 {
		lo = solve(func(p float64) float64 { return tail(p, k) - 0.025 })
	}
	hi = 1
	if k < n {
		hi = solve(func(p float64) float64 { return 0.025 - (1 - tail(p, k+1)) })
	}
	return lo, hi
}

func lchoose(n, k int) float64 {
	a, _ := math.Lgamma(float64(n + 1))
	b, _ := math.Lgamma(float64(k + 1))
	c, _ := math.Lgamma(float64(n - k + 1))
	return a - b - c
}

// surpriseWith is the default method with surprise parameters sp.
func surpriseWith(p surpriseParams) sigmaParams {
	sp := defaultSigma
	sp.surprise = &p
	return sp
}

var evalAmounts = []float64{0.05, 0.10, 0.15, 0.30}

// shortTable prints one method's table: per part and duration, the
// stable profiles, false alarms at thresholds, the AUC per change size
// with the oracle's beside it.
func shortTable(t *testing.T, name string, sp sigmaParams, tuning bool, oracleAt func(d int) bool) map[string]map[int]shortPart {
	var b strings.Builder
	fmt.Fprintf(&b, "\n%s\npart      | len | samples | stable | FA p>1e-2 | FA p>1e-3 | FA default | AUC +5 | +10 | +15 | +30 | hot | oracle +5 | +10 | +15 | +30\n", name)
	def := SurpriseThreshold(DefaultFalseAlarmsPerDay, DefaultInterval)
	parts := map[string]map[int]shortPart{}
	type part struct {
		name string
		in   func(string) bool
	}
	ps := []part{{"held-out", noveltydata.Series2k.HeldOut}}
	if tuning {
		ps = append([]part{{"tuning", func(p string) bool { return !noveltydata.Series2k.HeldOut(p) }}}, ps...)
	}
	for _, part := range ps {
		parts[part.name] = map[int]shortPart{}
		for _, d := range shortDurations {
			if !*evalFull && d != 2 && d != 10 {
				// The tests read 200 and 1,000 samples only.
				continue
			}
			p := poolShort(d, part.in, sp, oracleAt(d))
			parts[part.name][d] = p
			fmt.Fprintf(&b, "%-9s | %2ds | %7.0f | %6d | %9d | %9d | %10d |", part.name, d, p.samples, len(p.stable), p.alarms(2), p.alarms(3), p.alarms(def))
			for _, a := range evalAmounts {
				fmt.Fprintf(&b, " %.3f |", p.rise(a, false))
			}
			fmt.Fprintf(&b, " %.3f |", aucOrNaN(p.changed[changeKey("hot", 0.10)], p.stable))
			for _, a := range evalAmounts {
				fmt.Fprintf(&b, " %.3f |", p.rise(a, true))
			}
			b.WriteString("\n")
		}
	}
	t.Log(b.String())
	return parts
}

// heldOutStable pools every held-out stable score (all durations).
func heldOutStable(parts map[int]shortPart) (n int, alarms func(float64) int) {
	for _, p := range parts {
		n += len(p.stable)
	}
	return n, func(th float64) int {
		k := 0
		for _, p := range parts {
			k += p.alarms(th)
		}
		return k
	}
}

func never(int) bool { return false }

func TestSurpriseEvaluation(t *testing.T) {
	if *evalFull {
		// The candidates, judged on the tuning part only.
		for _, c := range []struct {
			name string
			sp   surpriseParams
		}{
			{"hashed estimates (no bounds, the first version)", surpriseParams{prior: 4, floor: 0.01, dispersion: 1}},
			{"top 3 (χ²₃)", surpriseParams{prior: 4, floor: 0.01, dispersion: 1, top3: true}},
			{"normal z (no Student's t)", surpriseParams{prior: 4, floor: 0.01, dispersion: 1, normal: true, bounds: true}},
			{"dispersion 1, floor 0.005", surpriseParams{prior: 4, floor: 0.005, dispersion: 1, bounds: true}},
			{"dispersion 1.5, floor 0.01", surpriseParams{prior: 4, floor: 0.01, dispersion: 1.5, bounds: true}},
			{"dispersion 1, floor 0.02", surpriseParams{prior: 4, floor: 0.02, dispersion: 1, bounds: true}},
		} {
			shortTable(t, "candidate: "+c.name, surpriseWith(c.sp), true, never)
		}
		shortTable(t, "σ score (before)", defaultSigma, true, never)
	}
	// The oracle costs most: by default only where a claim reads it.
	oracleAt := func(d int) bool { return *evalFull || d == 2 }
	parts := shortTable(t, "surprise (default)", surpriseWith(defaultSurprise), *evalFull, oracleAt)
	held := parts["held-out"]
	def := SurpriseThreshold(DefaultFalseAlarmsPerDay, DefaultInterval)

	// At 200 samples the score is within 0.02 of the oracle that knows
	// the run's shares and spread (ROC-AUC of +10-point changes).
	p2 := held[2]
	require.InDelta(t, p2.rise(0.10, true), p2.rise(0.10, false), 0.02, "held-out +10 points at %.0f samples: the score against the oracle", p2.samples)
	// From 1,000 samples a profile +10 points is mostly told apart, +30
	// always: ROC-AUC 0.97 at +10 (its noisy phases move within their own
	// ±6 points of variation; the README names it as a limit).
	p10 := held[10]
	require.GreaterOrEqual(t, p10.rise(0.10, false), 0.96, "held-out +10 points at %.0f samples", p10.samples)
	require.Equal(t, 1.0, p10.rise(0.30, false), "held-out +30 points at %.0f samples", p10.samples)
	// Sampling at ingest (DefaultSamplingLevel, chosen on the tuning
	// programs) keeps every held-out change of 10 points or more whole.
	for _, d := range samplingDurations() {
		p := held[d]
		k := keptAt(p, DefaultSamplingLevel)
		t.Logf("sampling at level %.1f, %.0f samples: %s", DefaultSamplingLevel, p.samples, k)
		require.Equal(t, k.of, k.kept, "held-out changes of 10 points or more kept whole at %.0f samples", p.samples)
	}

	// False alarms on the held-out stable profiles of 200 samples (with
	// -eval.full, 100 too):
	// at the thresholds of p = 1 % and 0.1 % and at the default (1 a day
	// at 15 s, 1/5,760 a profile), the rate's 95 % interval reaches the
	// stated rate or below. Longer profiles are logged: there the
	// series' own variation dominates and the rate is above the stated
	// one (a limit the README names).
	short := map[int]shortPart{1: held[1], 2: held[2]}
	long := map[int]shortPart{10: held[10], 60: held[60]}
	if !*evalFull {
		delete(short, 1)
		delete(long, 60)
	}
	for _, c := range []struct{ threshold, rate float64 }{
		{2, 1e-2}, {3, 1e-3}, {def, DefaultFalseAlarmsPerDay * DefaultInterval.Seconds() / 86400},
	} {
		n, alarms := heldOutStable(short)
		require.Greater(t, n, 1500, "held-out stable profiles")
		k := alarms(c.threshold)
		lo, hi := clopperPearson(k, n)
		t.Logf("held-out false alarms above %.2f at %v×100 samples: %d of %d (%.2g, 95 %% %.2g–%.2g; stated %.2g)", c.threshold, slices.Sorted(maps.Keys(short)), k, n, float64(k)/float64(n), lo, hi, c.rate)
		require.LessOrEqual(t, lo, c.rate, "false alarms above %.2f: %d of %d", c.threshold, k, n)
		n, alarms = heldOutStable(long)
		k = alarms(c.threshold)
		lo, hi = clopperPearson(k, n)
		t.Logf("held-out false alarms above %.2f at %v×100 samples: %d of %d (%.2g, 95 %% %.2g–%.2g; stated %.2g)", c.threshold, slices.Sorted(maps.Keys(long)), k, n, float64(k)/float64(n), lo, hi, c.rate)
	}
}

func TestSurpriseOfAFixedShiftGrowsWithSamples(t *testing.T) {
	// A history of 20 profiles whose shares are exactly 30/70, and a
	// profile at 40/60: the same shift at 100 to 6,400 samples.
	mk := func(a, n float64) Vector {
		b, err := NewBuilder(Params{})
		require.NoError(t, err)
		b.Add("main.a", a)
		b.Add("main.b", 1-a)
		v := b.Vector()
		v.Samples = n
		return v
	}
	sp := defaultSurprise
	var prevZ, prevScore float64
	for _, n := range []float64{100, 400, 1600, 6400} {
		hs := make([]Vector, 20)
		for i := range hs {
			hs[i] = mk(0.3, n)
		}
		v := mk(0.4, n)
		fs := sigmaFeatures(&v, hs, surpriseWith(sp))
		require.NotEmpty(t, fs)
		// The model: z = Δa / √V, V = c/(4N+2) + φ² + (c/(4N+2) + φ²)/20
		// with φ² the prior's k·φ₀²/(19 + k) (the history does not vary).
		phi2 := sp.prior * sp.floor * sp.floor / (19 + sp.prior)
		samp := sp.dispersion / (4*n + 2)
		want := (arcsine(0.4, n) - arcsine(0.3, n)) / math.Sqrt(samp+phi2+(samp+phi2)/20)
		require.InDelta(t, want, math.Abs(fs[0].z), 1e-3*want, "N = %v", n)
		score := surpriseScore(fs, &sp)
		if prevZ > 0 {
			// 4× the samples: z nearly doubles while sampling noise
			// dominates, less once the floor φ₀ does; never shrinks.
			ratio := math.Abs(fs[0].z) / prevZ
			require.Greater(t, ratio, 1.0, "N = %v", n)
			require.InDelta(t, math.Sqrt((4*samp+phi2)/(samp+phi2)), ratio, 0.05, "N = %v", n)
			require.Greater(t, score, prevScore)
		}
		prevZ, prevScore = math.Abs(fs[0].z), score
	}
}

func TestSurpriseThresholdIsAFalseAlarmRate(t *testing.T) {
	// One a day from a push every 15 s: a chance of 1 in 5,760 a profile.
	require.InDelta(t, math.Log10(5760), SurpriseThreshold(1, 15*time.Second), 1e-9)
	require.InDelta(t, 1, FalseAlarmsPerDay(SurpriseThreshold(1, 15*time.Second), 15*time.Second), 1e-9)
	o, err := Options{FalseAlarmsPerDay: 0.1, Interval: time.Minute}.WithDefaults()
	require.NoError(t, err)
	require.Equal(t, MethodSurprise, o.Method)
	require.InDelta(t, math.Log10(14400), o.Threshold, 1e-9)
	_, err = Options{Threshold: 7}.WithDefaults()
	require.ErrorContains(t, err, "method sigma to keep a threshold in σ")
	_, err = Options{Method: MethodSigma, FalseAlarmsPerDay: 1}.WithDefaults()
	require.ErrorContains(t, err, "false alarms per day set the threshold of method surprise")
}
