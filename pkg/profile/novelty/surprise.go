// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package novelty

import (
	"math"
	"time"

	"gonum.org/v1/gonum/stat/distuv"
)

// The surprise score (Method "surprise") asks how likely the series' own
// recent history makes a move as large as the profile's, accounting for
// both the profile's sampling noise (its sample count N) and how much the
// series varies beyond sampling. Each feature's share x (the same features
// as the σ score: functions, packages, inclusive groups) is a proportion
// of N samples; its variance-stabilising arcsine transform (Anscombe's,
// with x·N samples of N)
//
//	a(x, N) = asin √((x·N + 3/8) / (N + 3/4))
//
// has sampling variance 1/(4N + 2) whatever the share, so a rare function
// and a large one are measured on one scale. Over the history's n vectors
// (shares x_j of N_j samples), with c the dispersion (how much more a
// profile's samples vary than independent draws) and ā the mean of a_j:
//
//	S   = Σ_j (a_j − ā)²                          the history's spread
//	E   = (n−1)/n · Σ_j c/(4N_j + 2)               what sampling alone explains
//	φ²  = (max(0, S − E) + k·φ₀²) / (n − 1 + k)    extra (natural) variance,
//	                                                shrunk toward φ₀² while n is small
//	V   = c/(4N + 2) + φ² + (mean_j c/(4N_j + 2) + φ²)/n
//	z   = (a(x, N) − ā) / √V
//
// V is the predictive variance of one more profile: its own sampling
// noise, the series' natural variation, and the uncertainty of ā. φ² is
// itself estimated from n − 1 + k degrees of freedom, so z follows
// Student's t with the Welch–Satterthwaite degrees of freedom
// ν = V² / ((φ²·(1 + 1/n))² / (n − 1 + k)) (many when sampling noise
// dominates, few when the history's spread does); a move's two-sided tail
// is P(|T_ν| > |z|). Over the m features tested the chance that any moves
// that far is at most m times the smallest tail (Bonferroni), and
//
//	surprise = −log₁₀ min(1, m · min_f P(|T_ν_f| > |z_f|))
//
// A surprise of 4 is a move the series' usual variation makes once in
// 10,000 profiles. A threshold is a false-alarm rate: F false alarms a day
// from a series pushing every Δ is a chance of F·Δ/1 day per profile, the
// threshold log₁₀(1 day / (F·Δ)). A fixed shift's z grows as √N while the
// sampling term dominates V, and levels off where φ² does.
//
// A share a vector does not keep exactly is known only to lie between 0
// and the vector's smallest kept share (its smallest kept inclusive share
// for an inclusive feature); with bounds it is tested at the bound that
// makes the move smallest, never read from a hashed bucket.
type surpriseParams struct {
	// prior is k, the prior's weight in pseudo-profiles; floor is φ₀, the
	// prior's extra spread in arcsine units.
	prior, floor float64
	// dispersion is c.
	dispersion float64
	// normal reads z as standard normal instead of Student's t (the
	// evaluation compares both).
	normal bool
	// top3 tests the three largest moves together: q = Σ z² of the three
	// largest |z| against χ² on 3 degrees of freedom, Bonferroni over the
	// m·(m−1)·(m−2)/6 triples. A phase moves a few features at once
	// (its functions, their package, its inclusive share), which one
	// largest |z| undercounts.
	top3 bool
	// bounds reads a share a vector does not keep as the bound (0 or its
	// smallest kept share) that makes the move smallest, not its hashed
	// bucket's estimate (see sigmaFeatures).
	bounds bool
}

// defaultSurprise was chosen on the tuning programs only (logindex and
// rideshare; TestSurpriseEvaluation with -eval.full prints the tables).
// bounds came from the per-feature diagnostics of the stable profiles
// that scored highest there: each was a function one vector kept and
// another read from a hashed bucket.
var defaultSurprise = surpriseParams{prior: 4, floor: 0.01, dispersion: 1, bounds: true}

// Defaults of the false-alarm rate.
const (
	// DefaultFalseAlarmsPerDay is the default sensitivity: one false alarm
	// per series per day.
	DefaultFalseAlarmsPerDay = 1
	// DefaultInterval is the push interval assumed when a series' own is
	// unknown (most profilers push every 15 s).
	DefaultInterval = 15 * time.Second
)

// DefaultSamplingLevel is the surprise level (Result.Level) above which
// sampling at ingest keeps a profile whole. Keeping stacks is cheaper to
// err on than paging a person, so sampling's bar sits below the alarm's
// threshold and below the score's 0. It was chosen on the tuning programs
// only (logindex, rideshare; TestSamplingLevelChosenOnTuning): the
// largest bar, in steps of 0.1, below every tuning change of 10 points or
// more in profiles of 1,000 samples, whose lowest (a noisy phase's +10
// points, inside its own wobble) is at −0.51.
const DefaultSamplingLevel = -0.6

// SurpriseThreshold is the surprise above which a profile is novel when a
// series pushing every interval may raise falseAlarmsPerDay false alarms a
// day: log₁₀(1 day / (falseAlarmsPerDay · interval)), at least 0.
func SurpriseThreshold(falseAlarmsPerDay float64, interval time.Duration) float64 {
	return max(0, math.Log10(float64(24*time.Hour)/(falseAlarmsPerDay*float64(interval))))
}

// FalseAlarmsPerDay is SurpriseThreshold's inverse: the false alarms a day
// a threshold allows a series pushing every interval.
func FalseAlarmsPerDay(threshold float64, interval time.Duration) float64 {
	return float64(24*time.Hour) / float64(interval) * math.Pow(10, -threshold)
}

// sampleCounts are the sample counts of a history and of the profile
// scored (0 where unknown).
type sampleCounts struct {
	hist []float64
	cur  float64
	// samplingVar is each history vector's c/(4N + 2).
	samplingVar []float64
	// arcs is move's scratch: a feature's arcsine shares in the history.
	arcs []float64
}

func (p *surpriseParams) newSampleCounts(v *Vector, hs []Vector) sampleCounts {
	c := sampleCounts{hist: make([]float64, len(hs)), cur: v.Samples, samplingVar: make([]float64, len(hs)), arcs: make([]float64, len(hs))}
	for i := range hs {
		c.hist[i] = hs[i].Samples
		c.samplingVar[i] = p.samplingVar(hs[i].Samples)
	}
	return c
}

// arcsine is Anscombe's a(x, N); with N unknown, asin √x.
func arcsine(x, n float64) float64 {
	x = min(max(x, 0), 1)
	if n > 0 {
		x = (x*n + 0.375) / (n + 0.75)
	}
	return math.Asin(math.Sqrt(x))
}

// samplingVar is c/(4N + 2), 0 with N unknown.
func (p *surpriseParams) samplingVar(n float64) float64 {
	if n <= 0 {
		return 0
	}
	return p.dispersion / (4*n + 2)
}

// move returns a feature's mean share over the history, the predictive
// spread √V and the standardised move z; xs holds its shares in the
// history, the profile's last.
func (p *surpriseParams) move(xs []float64, c sampleCounts) (mean, sd, z, df float64) {
	n := len(c.hist)
	var abar, sampling float64
	for j := range n {
		mean += xs[j]
		c.arcs[j] = arcsine(xs[j], c.hist[j])
		abar += c.arcs[j]
		sampling += c.samplingVar[j]
	}
	nf := float64(n)
	mean /= nf
	abar /= nf
	var spread float64
	for _, a := range c.arcs[:n] {
		d := a - abar
		spread += d * d
	}
	extra := (max(0, spread-sampling*(nf-1)/nf) + p.prior*p.floor*p.floor) / (nf - 1 + p.prior)
	v := p.samplingVar(c.cur) + extra + (sampling/nf+extra)/nf
	sd = math.Sqrt(v)
	e := extra * (1 + 1/nf)
	df = v * v / (e * e / (nf - 1 + p.prior))
	return mean, sd, (arcsine(xs[n], c.cur) - abar) / sd, df
}

// surpriseTop is how many of the largest |z| surpriseScore reads: with
// unequal degrees of freedom the smallest tail may not be the largest
// |z|'s, but it is among the first few.
const surpriseTop = 5

// maxSurprise caps the score (a tail below 10⁻³⁰⁰ is not told apart).
const maxSurprise = 300

// surpriseScore is −log₁₀ of the Bonferroni-bounded chance of the
// features' largest move (fs sorted largest |z| first).
func surpriseScore(fs []sigmaFeature, p *surpriseParams) float64 {
	return max(0, surpriseLevel(fs, p))
}

// surpriseLevel is surpriseScore before the bound's chance is capped at 1:
// −log₁₀(m · min_f P_f), below 0 when the largest move is one the history
// makes more often than once in m features. Sampling at ingest reads it,
// so that its bar can sit below the score's 0.
func surpriseLevel(fs []sigmaFeature, p *surpriseParams) float64 {
	if len(fs) == 0 {
		return 0
	}
	m := float64(len(fs))
	if p.top3 && len(fs) >= 3 {
		var q float64
		for _, f := range fs[:3] {
			q += f.z * f.z
		}
		// P(χ²₃ > q) = erfc(√(q/2)) + √(2q/π)·e^(−q/2)
		logTail := logSum(logErfc(math.Sqrt(q/2)), 0.5*math.Log(2*q/math.Pi)-q/2)
		return min(maxSurprise, -(logTail+math.Log(m*(m-1)*(m-2)/6))/math.Ln10)
	}
	logTail := 0.0
	for _, f := range fs[:min(surpriseTop, len(fs))] {
		var lt float64
		if p.normal || f.df > 1e6 {
			lt = logErfc(math.Abs(f.z) / math.Sqrt2)
		} else {
			lt = math.Log(2 * distuv.StudentsT{Mu: 0, Sigma: 1, Nu: f.df}.Survival(math.Abs(f.z)))
		}
		logTail = min(logTail, lt)
	}
	return min(maxSurprise, -(logTail+math.Log(float64(len(fs))))/math.Ln10)
}

// logErfc is ln erfc(x) for x ≥ 0, without underflow for large x (an
// asymptotic series where erfc would round to 0).
func logErfc(x float64) float64 {
	if x < 20 {
		return math.Log(math.Erfc(x))
	}
	x2 := x * x
	return -x2 - math.Log(x*math.Sqrt(math.Pi)) + math.Log1p(-1/(2*x2)+3/(4*x2*x2))
}

// logSum is ln(eᵃ + eᵇ).
func logSum(a, b float64) float64 {
	if a < b {
		a, b = b, a
	}
	return a + math.Log1p(math.Exp(b-a))
}
