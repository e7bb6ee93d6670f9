// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package novelty

import (
	"cmp"
	"math"
	"slices"
	"strings"
)

// The σ score (Method "sigma") measures a profile against its series' own
// variation. Over the n vectors h_1..h_n of the history, for every feature
// f that the profile v or any of them keeps exactly (the others' shares of
// f estimated from their buckets):
//
//	μ_f  = mean_i s_f(h_i)                                    usual share
//	S_f  = Σ_i (s_f(h_i) − μ_f)²                              its spread
//	τ_f² = FloorAbs² + FloorRel²·μ_f                          prior variance
//	σ_f² = (S_f + k·τ_f²) / (n − 1 + k)                       shrunk toward τ
//	z_f  = (s_f(v) − μ_f) / (σ_f·√(1 + 1/n))                  standardised move
//
// σ_f² is the posterior estimate of the feature's variance with a scaled
// inverse-χ² prior (k pseudo-profiles of variance τ_f²); √(1 + 1/n) adds
// the uncertainty of μ_f itself, a mean of n shares, to the new share's:
// σ_f·√(1 + 1/n) is the spread of the posterior predictive, the share one
// more profile of the series has. Without it a short history (5 profiles
// after the warm-up) scores chance moves 10 % higher than a long one.
//
// With a short history σ_f is mostly the prior τ_f (about the sampling
// noise of a profile of ~1,000 samples); with a long one, the feature's own
// spread: a function that wobbles by 10 points needs a larger move to count
// than one that never moves. The score is the Euclidean norm of the top
// largest |z_f| (a diagonal Mahalanobis distance restricted to the features
// that moved most, so that many small features' chance wobble does not
// drown one real move, and a move spread over a few functions of one group
// still adds up). It reads in σ: 5 is a move five times the usual wobble.
const (
	// sigmaFloorAbs is the prior's floor on a share's standard deviation
	// (half a point), for features the history never shows.
	sigmaFloorAbs = 0.005
	// sigmaFloorRel scales the prior's variance with the usual share, as
	// sampling noise does (1/√1000: a profile of about 1,000 samples).
	sigmaFloorRel = 0.03
	// sigmaPrior is k, the prior's weight in pseudo-profiles.
	sigmaPrior = 4
	// sigmaTop is how many of the largest |z| make the score.
	sigmaTop = 3
)

// sigmaParams are the constants above, which the evaluation varies.
type sigmaParams struct {
	floorAbs, floorRel, prior float64
	top                       int
	// groups adds each package's summed share as a feature (by function).
	groups bool
	// inclusive adds each kept group's inclusive share as a feature.
	inclusive bool
	// predictive measures the move in the predictive spread σ·√(1 + 1/n)
	// (the new share's own spread and the history mean's), not σ alone.
	predictive bool
	// surprise measures moves with the sampling model of surprise.go
	// instead (floorAbs, floorRel and predictive unused).
	surprise *surpriseParams
}

var defaultSigma = sigmaParams{floorAbs: sigmaFloorAbs, floorRel: sigmaFloorRel, prior: sigmaPrior, top: sigmaTop, groups: true, inclusive: true, predictive: true}

// sigmaFeature is one feature's standardised move.
type sigmaFeature struct {
	hash     uint64
	key      string
	mean, sd float64
	share, z float64
	// df is the degrees of freedom of z (method surprise).
	df        float64
	fromExact bool
}

// sigmaFeatures returns the standardised moves of v's features against the
// history hs, largest |z| first (ties by key).
func sigmaFeatures(v *Vector, hs []Vector, sp sigmaParams) []sigmaFeature {
	if len(hs) == 0 {
		return nil
	}
	type feature struct {
		key   string
		exact bool
	}
	keys := map[uint64]feature{}
	for _, e := range v.Exact {
		keys[e.Hash] = feature{key: e.Key, exact: true}
	}
	for i := range hs {
		for _, e := range hs[i].Exact {
			if _, ok := keys[e.Hash]; !ok {
				keys[e.Hash] = feature{key: e.Key}
			}
		}
	}
	n := float64(len(hs))
	out := make([]sigmaFeature, 0, len(keys)+16)
	var counts sampleCounts
	if sp.surprise != nil {
		counts = sp.surprise.newSampleCounts(v, hs)
	}
	// xs[i] is the feature's share in hs[i], the last slot v's; groups sum
	// their functions' shares per vector.
	xs := make([]float64, len(hs)+1)
	type group struct {
		xs, up []float64
		exact  bool
	}
	var groups map[string]*group
	if sp.groups && v.Params.By == ByFunction {
		groups = map[string]*group{}
	}
	// Features with the same shares in every vector (a leaf function's own
	// and inclusive share, a package of one function, a chain of calls with
	// one path) are one feature, not a move counted once per name: the
	// first name wins (functions, then packages, then inclusive groups).
	seen := map[[2]float64]bool{}
	add := func(h uint64, key string, exact bool, xs []float64) {
		fp := fingerprint(xs)
		if seen[fp] {
			return
		}
		seen[fp] = true
		if sp.surprise != nil {
			mean, sd, z, df := sp.surprise.move(xs, counts)
			out = append(out, sigmaFeature{hash: h, key: key, mean: mean, sd: sd, share: xs[len(hs)], z: z, df: df, fromExact: exact})
			return
		}
		var mean float64
		for _, x := range xs[:len(hs)] {
			mean += x
		}
		mean /= n
		var ss float64
		for _, x := range xs[:len(hs)] {
			ss += (x - mean) * (x - mean)
		}
		prior := sp.floorAbs*sp.floorAbs + sp.floorRel*sp.floorRel*mean
		sd := math.Sqrt((ss + sp.prior*prior) / (n - 1 + sp.prior))
		if sp.predictive {
			sd *= math.Sqrt(1 + 1/n)
		}
		x := xs[len(hs)]
		out = append(out, sigmaFeature{hash: h, key: key, mean: mean, sd: sd, share: x, z: (x - mean) / sd, fromExact: exact})
	}
	// addBounded adds a feature whose shares are known within bounds: the
	// rise measured on up, the fall on down (nil: a fall is not tested),
	// the larger kept (both the same when every vector keeps it); low are
	// the history's lower bounds, its usual share as the annotation says.
	addBounded := func(h uint64, key string, exact bool, up, down, low []float64) {
		if slices.Equal(up, down) {
			add(h, key, exact, down)
			return
		}
		fp := fingerprint(up)
		if seen[fp] {
			return
		}
		seen[fp] = true
		mu, sdu, zu, dfu := sp.surprise.move(up, counts)
		f := sigmaFeature{hash: h, key: key, fromExact: exact}
		var md, sdd, zd, dfd float64
		if down != nil {
			md, sdd, zd, dfd = sp.surprise.move(down, counts)
		}
		if max(zu, 0) >= -min(zd, 0) {
			f.mean, f.sd, f.share, f.z, f.df = mu, sdu, up[len(hs)], max(zu, 0), dfu
			if low != nil {
				// A person reads the usual share: what the history kept
				// (0 where it did not), not the bound the test used.
				f.mean = 0
				for _, x := range low[:len(hs)] {
					f.mean += x
				}
				f.mean /= float64(len(hs))
			}
		} else {
			f.mean, f.sd, f.share, f.z, f.df = md, sdd, down[len(hs)], zd, dfd
		}
		out = append(out, f)
	}
	hashes := make([]uint64, 0, len(keys))
	for h := range keys {
		hashes = append(hashes, h)
	}
	slices.Sort(hashes)
	// With bounds (method surprise), a share a vector does not keep is
	// not read from its hashed bucket (other functions collide there, and
	// the estimate is clamped at 0): it lies between 0 and the vector's
	// smallest kept share, and the move is tested at the bound that makes
	// it smallest. up holds the bounds for a rise (history at its upper
	// bound, the profile at 0), xs those for a fall.
	bounds := sp.surprise != nil && sp.surprise.bounds
	var floors, up []float64
	if bounds {
		floors = make([]float64, len(hs)+1)
		for i := range hs {
			floors[i] = hs[i].keptFloor()
		}
		floors[len(hs)] = v.keptFloor()
		up = make([]float64, len(xs))
	}
	// The hashes are visited in increasing order, and every vector keeps
	// its features sorted by hash: one cursor per vector walks its kept
	// features once, instead of a binary search per feature and vector.
	cursors := make([]int, len(hs)+1)
	vectorAt := func(i int) *Vector {
		if i < len(hs) {
			return &hs[i]
		}
		return v
	}
	for _, h := range hashes {
		f := keys[h]
		if bounds {
			for i := range xs {
				w := vectorAt(i)
				if j, ok := seekSorted(w.Exact, &cursors[i], h); ok {
					xs[i] = float64(w.Exact[j].Weight) * float64(w.Scale)
					up[i] = xs[i]
					continue
				}
				// Not kept: a fall is measured from 0 in the history to
				// the bound in the profile, a rise the other way round.
				xs[i], up[i] = 0, floors[i]
				if i == len(hs) {
					xs[i], up[i] = floors[i], 0
				}
			}
			addBounded(h, f.key, f.exact, up, xs, xs)
		} else {
			for i := range xs {
				w := vectorAt(i)
				if j, ok := seekSorted(w.Exact, &cursors[i], h); ok {
					xs[i] = float64(w.Exact[j].Weight) * float64(w.Scale)
				} else {
					xs[i] = max(0, w.bucketEstimate(h)*float64(w.Scale))
				}
			}
			add(h, f.key, f.exact, xs)
		}
		if groups == nil {
			continue
		}
		if pkg := packageOf(f.key); pkg != "" {
			g := groups[pkg]
			if g == nil {
				g = &group{xs: make([]float64, len(xs)), up: make([]float64, len(xs))}
				groups[pkg] = g
			}
			for i, x := range xs {
				g.xs[i] += x
			}
			if bounds {
				for i, x := range up {
					g.up[i] += x
				}
			}
			g.exact = g.exact || f.exact
		}
	}
	pkgs := make([]string, 0, len(groups))
	for name := range groups {
		pkgs = append(pkgs, name)
	}
	slices.Sort(pkgs)
	for _, name := range pkgs {
		if bounds {
			addBounded(0, name, groups[name].exact, groups[name].up, groups[name].xs, groups[name].xs)
			continue
		}
		add(0, name, groups[name].exact, groups[name].xs)
	}
	if sp.inclusive {
		// Only functions every vector keeps: a share not kept is unknown
		// (below the kept ones), not 0.
		// With bounds, a history vector that does not keep the group has
		// it below its smallest kept group: a rise is measured from that
		// bound (a new function's own inclusive share is then tested).
		// v.Groups are sorted by hash, as every history vector's: one
		// cursor per history vector, and each vector's floor once.
		groupFloors := make([]float64, len(hs))
		floorKnown := make([]bool, len(hs))
		for i := range hs {
			groupFloors[i], floorKnown[i] = hs[i].groupFloor()
		}
		kept := make([]bool, len(hs))
		clear(cursors)
	groups:
		for _, e := range v.Groups {
			partial := false
			for i := range hs {
				j, ok := seekSorted(hs[i].Groups, &cursors[i], e.Hash)
				kept[i] = ok
				x := 0.0
				if ok {
					x = float64(hs[i].Groups[j].Weight)
				} else {
					if !bounds || !floorKnown[i] {
						continue groups
					}
					x, partial = groupFloors[i], true
				}
				xs[i] = x
			}
			xs[len(hs)] = float64(e.Weight)
			key, h := e.Key, e.Hash
			if partial {
				copy(up, xs)
				for i := range hs {
					if !kept[i] {
						xs[i] = 0
					}
				}
				// Only the rise is known to be at least this large.
				addBounded(h, key+" (with callees)", true, up, nil, xs)
				continue
			}
			add(h, key+" (with callees)", true, xs)
		}
	}
	slices.SortFunc(out, func(a, b sigmaFeature) int {
		if c := cmp.Compare(math.Abs(b.z), math.Abs(a.z)); c != 0 {
			return c
		}
		return cmp.Compare(a.key, b.key)
	})
	return out
}

// seekSorted finds the entry of hash h in es (sorted by hash), starting at
// *at and leaving *at at the first entry not below h: visiting hashes in
// increasing order walks es once.
func seekSorted(es []Entry, at *int, h uint64) (int, bool) {
	i := *at
	for i < len(es) && es[i].Hash < h {
		i++
	}
	*at = i
	return i, i < len(es) && es[i].Hash == h
}

// fingerprint tells features with the same shares in every vector apart
// from the others.
func fingerprint(xs []float64) [2]float64 {
	var sum, sq float64
	for _, x := range xs {
		sum += x
		sq += x * x
	}
	return [2]float64{math.Round(sum * 1e4), math.Round(sq * 1e5)}
}

// keptFloor is the smallest share v keeps exactly: a feature it does not
// keep has at most that share (0 when v keeps every feature).
func (v *Vector) keptFloor() float64 {
	if len(v.Exact) < v.Params.K || v.Buckets == nil {
		return 0
	}
	m := math.Inf(1)
	for _, e := range v.Exact {
		m = min(m, math.Abs(float64(e.Weight)))
	}
	return m * float64(v.Scale)
}

// sigmaScore is the Euclidean norm of the top largest |z|.
func sigmaScore(fs []sigmaFeature, top int) float64 {
	if len(fs) == 0 {
		return 0
	}
	var sum float64
	k := min(top, len(fs))
	for _, f := range fs[:k] {
		sum += f.z * f.z
	}
	return math.Sqrt(sum)
}

// packageOf is the Go package of a function name ("encoding/json" of
// "encoding/json.(*decodeState).object", "slices" of a generic
// "slices.partitionCmpFunc[go.shape...]"), "" for a name without one.
func packageOf(name string) string {
	if i := strings.IndexByte(name, '['); i >= 0 {
		name = name[:i]
	}
	slash := strings.LastIndexByte(name, '/')
	dot := strings.IndexByte(name[slash+1:], '.')
	if dot <= 0 {
		return ""
	}
	return name[:slash+1+dot]
}

// sigmaChanges are the n features of largest |z|, as Changes: From the
// usual share, To the profile's, Sigma the move in σ.
func sigmaChanges(fs []sigmaFeature, n int) []Change {
	out := make([]Change, 0, n)
	for _, f := range fs {
		if len(out) == n {
			break
		}
		if f.z == 0 {
			continue
		}
		out = append(out, Change{Name: f.key, From: f.mean, To: f.share, Sigma: f.z})
	}
	return out
}
