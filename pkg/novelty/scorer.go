package novelty

import (
	"fmt"
	"math"
)

// Defaults of Options.
const (
	DefaultK           = 3
	DefaultWarmUp      = 5
	DefaultAlpha       = 0.2
	DefaultMinDistance = 0.1
)

// Options tune a Scorer; zero fields take the defaults.
type Options struct {
	// K is how many standard deviations above the mean of past distances a
	// distance must be to be novel (default 3).
	K float64
	// WarmUp is how many vectors a series must have seen before any can be
	// novel (default 5).
	WarmUp int
	// Alpha is the weight of a new vector in the mean vector and of a new
	// distance in the distance statistics, 0 < Alpha ≤ 1 (default 0.2, a
	// memory of about the last 1/Alpha = 5 windows). Until a series has seen
	// 1/Alpha values each gets weight 1/n, so the early means are plain means.
	Alpha float64
	// MinDistance is a floor under the threshold (default 0.1): a series that
	// never changes has a spread of 0, and without a floor any sampling noise
	// would be novel.
	MinDistance float64
}

func (o Options) withDefaults() (Options, error) {
	if o.K == 0 {
		o.K = DefaultK
	}
	if o.WarmUp == 0 {
		o.WarmUp = DefaultWarmUp
	}
	if o.Alpha == 0 {
		o.Alpha = DefaultAlpha
	}
	if o.MinDistance == 0 {
		o.MinDistance = DefaultMinDistance
	}
	switch {
	case o.K < 0 || math.IsNaN(o.K) || math.IsInf(o.K, 0):
		return o, fmt.Errorf("novelty: K must be a positive number, not %v", o.K)
	case o.WarmUp < 0:
		return o, fmt.Errorf("novelty: WarmUp must not be negative, not %d", o.WarmUp)
	case !(o.Alpha > 0 && o.Alpha <= 1):
		return o, fmt.Errorf("novelty: Alpha must be in (0, 1], not %v", o.Alpha)
	case o.MinDistance < 0 || o.MinDistance > 1:
		return o, fmt.Errorf("novelty: MinDistance must be in [0, 1], not %v", o.MinDistance)
	}
	return o, nil
}

// Score is the verdict on one vector.
type Score struct {
	// Distance is the cosine distance to the series' mean vector, clamped to
	// 0..1 (0: same mix of frames; 1: nothing in common). The first vector
	// of a series scores 0.
	Distance float64
	// Threshold is the distance above which the vector would have been
	// novel: max(mean + K·stddev of past distances, MinDistance). It is
	// +Inf while the series warms up.
	Threshold float64
	// Novel is Distance > Threshold.
	Novel bool
}

// history is all a Scorer keeps of a series.
type history struct {
	mean [Dims]float64
	// n counts the vectors seen; dn the distances (n-1).
	n, dn             int
	distMean, distVar float64
}

// Scorer scores vectors against the history of their series. It is not safe
// for concurrent use.
type Scorer struct {
	opts   Options
	series map[string]*history
}

// NewScorer returns a Scorer; zero options take the defaults.
func NewScorer(opts Options) (*Scorer, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	return &Scorer{opts: o, series: map[string]*history{}}, nil
}

// Options returns the options in effect, defaults filled in.
func (s *Scorer) Options() Options { return s.opts }

// Score scores v against the history of series, then adds v to it. A zero
// vector (an empty profile) is neither scored nor remembered: ok is false.
func (s *Scorer) Score(series string, v Vector) (sc Score, ok bool) {
	if v.IsZero() {
		return Score{}, false
	}
	h := s.series[series]
	if h == nil {
		h = &history{}
		s.series[series] = h
	}
	sc.Threshold = math.Inf(1)
	if h.n > 0 {
		sc.Distance = h.distance(&v)
		if h.n >= s.opts.WarmUp && h.dn > 0 {
			sc.Threshold = max(h.distMean+s.opts.K*math.Sqrt(h.distVar), s.opts.MinDistance)
			sc.Novel = sc.Distance > sc.Threshold
		}
		h.addDistance(sc.Distance, s.opts.Alpha)
	}
	h.addVector(&v, s.opts.Alpha)
	return sc, true
}

// Forget drops a series' history.
func (s *Scorer) Forget(series string) { delete(s.series, series) }

// Len returns how many series the Scorer remembers.
func (s *Scorer) Len() int { return len(s.series) }

// weight is the weight of the nth value (1-based): 1/n while that is above
// alpha, so early means are plain means, then alpha.
func weight(n int, alpha float64) float64 { return max(1/float64(n), alpha) }

func (h *history) distance(v *Vector) float64 {
	var dot, norm float64
	for i, m := range h.mean {
		dot += m * float64(v[i])
		norm += m * m
	}
	if norm == 0 {
		return 1
	}
	// v is unit length, so cos = dot / |mean|.
	d := 1 - dot/math.Sqrt(norm)
	return min(max(d, 0), 1)
}

func (h *history) addVector(v *Vector, alpha float64) {
	h.n++
	w := weight(h.n, alpha)
	for i := range h.mean {
		h.mean[i] += w * (float64(v[i]) - h.mean[i])
	}
}

// addDistance updates the exponentially weighted mean and variance of the
// distances (West's incremental form; with weights 1/n it is Welford's).
func (h *history) addDistance(d, alpha float64) {
	h.dn++
	w := weight(h.dn, alpha)
	diff := d - h.distMean
	incr := w * diff
	h.distMean += incr
	h.distVar = (1 - w) * (h.distVar + diff*incr)
}
