// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package novelty

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"time"
)

// Defaults of Options.
const (
	DefaultHistory = 20
	// DefaultThreshold is the default of Threshold for Method sigma, in σ.
	DefaultThreshold = 7
	// DefaultCosineThreshold is the default of Threshold for Method cosine
	// (and clustering).
	DefaultCosineThreshold = 0.1
	DefaultWarmUp          = 5
	DefaultChanges         = 3
	DefaultMaxClusters     = 64
)

// Methods of scoring.
const (
	// MethodSurprise (the default) scores each profile by how unlikely its
	// largest feature move is under the series' own history, its sampling
	// noise and natural variation both counted (surprise.go): −log₁₀ of a
	// chance, so one threshold means one false-alarm rate on every series.
	MethodSurprise = "surprise"
	// MethodSigma scores each profile by how far its features' shares moved
	// from their usual shares, in units of each feature's own spread over
	// the series' history (sigma.go).
	MethodSigma = "sigma"
	// MethodCosine scores 1 − the highest cosine similarity to the history.
	MethodCosine = "cosine"
)

// Options tune scoring; zero fields take the defaults.
type Options struct {
	// Method is MethodSurprise (the default), MethodSigma or MethodCosine;
	// clustering measures cosine distances to centroids, so it implies
	// MethodCosine.
	Method string
	// History is H, how many of a series' latest vectors a new one is
	// compared with (default 20).
	History int
	// Cluster scores against cluster centroids instead of the last H
	// vectors: each vector joins the nearest cluster when within Threshold
	// of its centroid (which then moves to the running mean of its members),
	// else starts a new one.
	Cluster bool
	// MaxClusters bounds the clusters of a series (default 64); the least
	// recently matched is dropped.
	MaxClusters int
	// Threshold is the score above which a profile is novel: a surprise
	// for MethodSurprise (default: from FalseAlarmsPerDay and Interval), in
	// σ for MethodSigma (default 7), a cosine distance for MethodCosine
	// (default 0.1), which is also the radius within which a vector joins a
	// cluster.
	Threshold float64
	// FalseAlarmsPerDay is the sensitivity of MethodSurprise: how many
	// stable profiles a day a series may mark novel (default 1); with
	// Interval it sets Threshold. Give one of the two.
	FalseAlarmsPerDay float64
	// Interval is how often the series pushes a profile (default 15 s;
	// ScoreSeries measures it from the points when zero).
	Interval time.Duration
	// WarmUp is how many vectors a series must have seen before one can be
	// novel (default 5).
	WarmUp int
	// Changes is how many moved functions a novel profile names (default 3).
	Changes int
}

// WithDefaults fills zero fields and checks the rest.
func (o Options) WithDefaults() (Options, error) {
	if o.History == 0 {
		o.History = DefaultHistory
	}
	switch {
	case o.Method == "" && o.Cluster:
		o.Method = MethodCosine
	case o.Method == "" && o.Threshold != 0:
		// Before the surprise score, a threshold without a method was in σ.
		return o, fmt.Errorf("novelty: threshold %v without a method: the default method is now surprise, whose threshold is a false-alarm rate; give falseAlarmsPerDay, or method sigma to keep a threshold in σ", o.Threshold)
	case o.Method == "":
		o.Method = MethodSurprise
	case o.Method == MethodSurprise || o.Method == MethodSigma || o.Method == MethodCosine:
	default:
		return o, fmt.Errorf("novelty: method %q: want surprise, sigma or cosine", o.Method)
	}
	switch {
	case o.FalseAlarmsPerDay < 0 || math.IsNaN(o.FalseAlarmsPerDay) || math.IsInf(o.FalseAlarmsPerDay, 0):
		return o, fmt.Errorf("novelty: false alarms per day must be positive, not %v", o.FalseAlarmsPerDay)
	case o.Interval < 0:
		return o, fmt.Errorf("novelty: push interval must be positive, not %s", o.Interval)
	case o.FalseAlarmsPerDay != 0 && o.Method != MethodSurprise:
		return o, fmt.Errorf("novelty: false alarms per day set the threshold of method surprise, not %s: give a threshold instead", o.Method)
	case o.FalseAlarmsPerDay != 0 && o.Threshold != 0 && math.Abs(o.Threshold-SurpriseThreshold(o.FalseAlarmsPerDay, cmp.Or(o.Interval, DefaultInterval))) > 1e-9:
		// (Options already filled in carry both, consistent.)
		return o, fmt.Errorf("novelty: give false alarms per day or a threshold, not both")
	}
	if o.Method == MethodSurprise {
		if o.Interval == 0 {
			o.Interval = DefaultInterval
		}
		if o.Threshold == 0 {
			if o.FalseAlarmsPerDay == 0 {
				o.FalseAlarmsPerDay = DefaultFalseAlarmsPerDay
			}
			o.Threshold = SurpriseThreshold(o.FalseAlarmsPerDay, o.Interval)
		} else {
			o.FalseAlarmsPerDay = FalseAlarmsPerDay(o.Threshold, o.Interval)
		}
	}
	if o.Cluster && o.Method != MethodCosine {
		return o, fmt.Errorf("novelty: clustering measures cosine distances: use method cosine, not %s", o.Method)
	}
	if o.Threshold == 0 {
		o.Threshold = DefaultThreshold
		if o.Method == MethodCosine {
			o.Threshold = DefaultCosineThreshold
		}
	}
	if o.WarmUp == 0 {
		o.WarmUp = DefaultWarmUp
	}
	if o.Changes == 0 {
		o.Changes = DefaultChanges
	}
	if o.MaxClusters == 0 {
		o.MaxClusters = DefaultMaxClusters
	}
	switch {
	case o.History < 1 || o.History > 10000:
		return o, fmt.Errorf("novelty: history must be 1..10000 profiles, not %d", o.History)
	case o.Method == MethodCosine && !(o.Threshold > 0 && o.Threshold <= 1):
		return o, fmt.Errorf("novelty: threshold of method cosine must be in (0, 1], not %v", o.Threshold)
	case o.Method == MethodSigma && !(o.Threshold > 0 && o.Threshold <= 1000):
		return o, fmt.Errorf("novelty: threshold of method sigma must be in (0, 1000] σ, not %v", o.Threshold)
	case o.Method == MethodSurprise && !(o.Threshold > 0 && o.Threshold <= 300):
		return o, fmt.Errorf("novelty: threshold of method surprise must be in (0, 300], not %v (false alarms per day %v at a push every %s)", o.Threshold, o.FalseAlarmsPerDay, o.Interval)
	case o.WarmUp < 0:
		return o, fmt.Errorf("novelty: warm-up must not be negative, not %d", o.WarmUp)
	case o.Changes < 0:
		return o, fmt.Errorf("novelty: changes must not be negative, not %d", o.Changes)
	case o.MaxClusters < 1:
		return o, fmt.Errorf("novelty: max clusters must be positive, not %d", o.MaxClusters)
	}
	return o, nil
}

// Change is a feature whose share moved against the matched history.
type Change struct {
	Name string
	// From is its share (0..1) in what the profile matched (with MethodSigma
	// its mean share over the history), To in the profile.
	From, To float64
	// Sigma is the move To − From in units of the feature's predictive
	// spread over the history: σ·√(1 + 1/n) with MethodSigma, √V (on the
	// arcsine scale, surprise.go) with MethodSurprise; 0 with MethodCosine.
	Sigma float64
}

// Result is the verdict on one vector of a series.
type Result struct {
	// Score is, with MethodSurprise, −log₁₀ of the chance that the series'
	// usual variation moves a feature as far (0 and up); with MethodSigma, the standardised move of the profile's
	// features against the last H vectors, in σ (0 and up); with
	// MethodCosine, 1 − the highest cosine similarity to the last H vectors
	// (or the distance to the nearest centroid), 0..1. The first vector of a
	// series scores 0.
	Score float64
	// Level is, with MethodSurprise, the surprise before it is clamped at
	// 0: −log₁₀(m · min_f P_f) over the m features tested, below 0 when the
	// largest move is one the series' variation makes more often than once
	// in m features. Sampling at ingest keeps a profile whole above a bar
	// of its own (DefaultSamplingLevel), below the score's 0. With the
	// other methods it is Score.
	Level float64
	// Novel is Score > Threshold once the series has warmed up.
	Novel bool
	// Match is the sequence number (0-based, in Score calls of the series)
	// of the most similar of the last H vectors, -1 for the first.
	Match int
	// Changes name the features whose share moved most: with MethodSigma,
	// in σ against the history; with MethodCosine, in share against what was
	// matched (the nearest vector, or the nearest centroid). Largest first;
	// set for novel vectors only.
	Changes []Change
}

// Series scores the vectors of one series in time order. It keeps the last
// H vectors (and with clustering, the centroids): no stacks.
type Series struct {
	opts     Options
	seen     int
	ring     []Vector
	ringSeq  []int
	clusters []cluster
	sigma    sigmaParams
}

type cluster struct {
	centroid Vector
	n        int
	lastUsed int
}

// NewSeries returns an empty series history.
func NewSeries(opts Options) (*Series, error) {
	o, err := opts.WithDefaults()
	if err != nil {
		return nil, err
	}
	s := &Series{opts: o, sigma: defaultSigma}
	if o.Method == MethodSurprise {
		sp := defaultSurprise
		s.sigma.surprise = &sp
	}
	return s, nil
}

// Options returns the options in effect.
func (s *Series) Options() Options { return s.opts }

// Seen returns how many vectors the series has scored.
func (s *Series) Seen() int { return s.seen }

// Score scores v against the series' history, then adds it. A zero vector
// (an empty profile) is neither scored nor remembered: ok is false.
func (s *Series) Score(v Vector) (r Result, ok bool) {
	if v.IsZero() {
		return Result{}, false
	}
	r.Match = -1
	var ref *Vector
	best := -2.0
	for i := range s.ring {
		if c := Cosine(&v, &s.ring[i]); c > best {
			best, r.Match, ref = c, s.ringSeq[i], &s.ring[i]
		}
	}
	if ref != nil {
		r.Score = min(max(1-best, 0), 1)
	}
	if s.opts.Method == MethodSigma || s.opts.Method == MethodSurprise {
		fs := sigmaFeatures(&v, s.ring, s.sigma)
		if s.sigma.surprise != nil {
			r.Level = surpriseLevel(fs, s.sigma.surprise)
			r.Score = max(0, r.Level)
		} else {
			r.Score = sigmaScore(fs, s.sigma.top)
			r.Level = r.Score
		}
		r.Novel = ref != nil && s.seen >= s.opts.WarmUp && r.Score > s.opts.Threshold
		if r.Novel && s.opts.Changes > 0 {
			r.Changes = sigmaChanges(fs, s.opts.Changes)
		}
		s.remember(v)
		return r, true
	}
	if s.opts.Cluster {
		ci, d := s.nearestCluster(&v)
		if ci >= 0 {
			r.Score = d
			ref = &s.clusters[ci].centroid
		}
		s.addToCluster(v, ci, d)
	}
	r.Level = r.Score
	r.Novel = ref != nil && s.seen >= s.opts.WarmUp && r.Score > s.opts.Threshold
	if r.Novel && s.opts.Changes > 0 {
		r.Changes = Changes(ref, &v, s.opts.Changes)
	}
	s.remember(v)
	return r, true
}

func (s *Series) remember(v Vector) {
	if len(s.ring) < s.opts.History {
		s.ring = append(s.ring, v)
		s.ringSeq = append(s.ringSeq, s.seen)
	} else {
		i := s.seen % s.opts.History
		s.ring[i], s.ringSeq[i] = v, s.seen
	}
	s.seen++
}

func (s *Series) nearestCluster(v *Vector) (int, float64) {
	best, bd := -1, math.Inf(1)
	for i := range s.clusters {
		if d := Distance(v, &s.clusters[i].centroid); d < bd {
			best, bd = i, d
		}
	}
	return best, bd
}

func (s *Series) addToCluster(v Vector, ci int, d float64) {
	if ci >= 0 && d <= s.opts.Threshold {
		c := &s.clusters[ci]
		c.n++
		c.lastUsed = s.seen
		// Running mean of the members' unit vectors, as shares weighted
		// equally: merge with weights n-1 : 1, renormalised by Merge.
		if m, err := Merge([]Vector{c.centroid, v}, []int64{int64(c.n - 1), 1}); err == nil {
			c.centroid = m
		}
		return
	}
	if len(s.clusters) == s.opts.MaxClusters {
		oldest := 0
		for i := range s.clusters {
			if s.clusters[i].lastUsed < s.clusters[oldest].lastUsed {
				oldest = i
			}
		}
		s.clusters = slices.Delete(s.clusters, oldest, oldest+1)
	}
	s.clusters = append(s.clusters, cluster{centroid: v, n: 1, lastUsed: s.seen})
}

// Clusters returns how many clusters the series holds (0 without clustering).
func (s *Series) Clusters() int { return len(s.clusters) }

// Changes returns the n features whose share moved most from ref to v (by
// absolute change; kept features of either vector are compared, the other
// side's share estimated from its bucket when it did not keep them),
// largest move first, ties by name.
func Changes(ref, v *Vector, n int) []Change {
	seen := map[uint64]bool{}
	var out []Change
	add := func(e Entry) {
		if seen[e.Hash] {
			return
		}
		seen[e.Hash] = true
		c := Change{Name: e.Key, From: ref.Share(e.Key), To: v.Share(e.Key)}
		if c.From != c.To {
			out = append(out, c)
		}
	}
	for _, e := range v.Exact {
		add(e)
	}
	for _, e := range ref.Exact {
		add(e)
	}
	slices.SortFunc(out, func(a, b Change) int {
		if c := cmp.Compare(math.Abs(b.To-b.From), math.Abs(a.To-a.From)); c != 0 {
			return c
		}
		return cmp.Compare(a.Name, b.Name)
	})
	return out[:min(n, len(out))]
}
