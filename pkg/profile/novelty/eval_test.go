// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package novelty

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/internal/fixtures"
	noveltydata "github.com/emberscope/emberscope/internal/fixtures/noveltydata"
	"github.com/emberscope/emberscope/pkg/profile/flame"
	"github.com/emberscope/emberscope/pkg/profile/flame/flametest"
)

// evalProfile is one recorded profile of internal/fixtures/novelty.
type evalProfile struct {
	noveltydata.Entry
	tree *flame.Tree
	// shares are the exact self shares by function (or stack).
	shares map[string]float64
}

// recorderFrames are the recorder's own frames: every workload variant runs
// in its own closure under main.(*recorder).record (inlined into the
// recorder's closures of main.main, as main.main.funcN.(*rideshare).usual.1),
// so by stack each variant would differ from the first frame on. They are
// dropped, as the query language's drop_frames would, so stacks start at the
// workload.
var recorderFrames = regexp.MustCompile(`^(runtime\.main|main\.main|main\.\(\*recorder\)\.record|main\..*\.func\d+|main\.main\.func\d+\..*)$`)

// loadEvalProfiles reads every recorded profile and builds its tree as
// Pyroscope would (cpu nanoseconds), without the recorder's frames.
func loadEvalProfiles(t testing.TB) []*evalProfile {
	t.Helper()
	var ps []*evalProfile
	for _, e := range noveltydata.Manifest(t) {
		pp := noveltydata.Parse(t, e)
		require.Equal(t, "cpu", pp.SampleType[1].Type, e.File)
		tr, err := flametest.FromProfile(pp, 1)
		require.NoError(t, err, e.File)
		require.Positive(t, tr.Total(), e.File)
		ps = append(ps, &evalProfile{Entry: e, tree: flame.DropFrames(tr, recorderFrames)})
	}
	return ps
}

// exactShares are the self shares of every feature of t.
func exactShares(t *flame.Tree, by By) map[string]float64 {
	out := map[string]float64{}
	var total float64
	for n := 1; n < t.Len(); n++ {
		id := flame.NodeID(n)
		v := float64(t.Self(id))
		if v == 0 {
			continue
		}
		key := t.Name(id)
		if by == ByStack {
			key = stackKey(t, id)
		}
		out[key] += v
		total += math.Abs(v)
	}
	for k := range out {
		out[k] /= total
	}
	return out
}

// evalResult is what one configuration achieves on the recorded profiles.
type evalResult struct {
	name                          string
	stable, changed               []float64
	changedNames                  []string
	stableSeries, changedSeries   []string
	changedKinds                  []string
	auc, gap                      float64
	maxStable, minChanged         float64
	errMean, errMax               float64
	pairs, changedNovel, stableFP int
}

// evaluate scores each program's stable series in order (every profile
// after the warm-up is a stable score), then each changed profile against
// its series' full stable history, and compares compact with exact cosines
// over every pair of profiles.
func evaluate(t testing.TB, ps []*evalProfile, nStable int, p Params, o Options) evalResult {
	t.Helper()
	o, err := o.WithDefaults()
	require.NoError(t, err)
	vecs := map[*evalProfile]Vector{}
	var used []*evalProfile
	count := map[string]int{}
	for _, e := range ps {
		if e.Change == "" {
			if count[e.Series] >= nStable {
				continue
			}
			count[e.Series]++
		}
		vecs[e] = mustVector(t, e.tree, p)
		used = append(used, e)
	}
	r := evalResult{name: fmt.Sprintf("K=%d D=%d by %s, H=%d, cluster %v", p.K, p.D, p.By, o.History, o.Cluster)}
	if p.K == 0 {
		r.name = fmt.Sprintf("K=%d D=%d by %s, H=%d, cluster %v", DefaultK, DefaultD, p.By, o.History, o.Cluster)
	}
	history := map[string]*Series{}
	for _, e := range used {
		if e.Change != "" {
			continue
		}
		s := history[e.Series]
		if s == nil {
			s, err = NewSeries(o)
			require.NoError(t, err)
			history[e.Series] = s
		}
		warm := s.seen >= o.WarmUp
		res, ok := s.Score(vecs[e])
		require.True(t, ok)
		if warm {
			r.stable = append(r.stable, res.Score)
			r.stableSeries = append(r.stableSeries, e.Series)
			if res.Novel {
				r.stableFP++
			}
		}
	}
	for _, e := range used {
		if e.Change == "" {
			continue
		}
		// Score against a copy of the history: changed profiles are not
		// scored against each other.
		s, err := NewSeries(o)
		require.NoError(t, err)
		for _, x := range used {
			if x.Change == "" && x.Series == e.Series {
				s.Score(vecs[x])
			}
		}
		res, _ := s.Score(vecs[e])
		r.changed = append(r.changed, res.Score)
		r.changedNames = append(r.changedNames, e.Name())
		r.changedSeries = append(r.changedSeries, e.Series)
		r.changedKinds = append(r.changedKinds, e.Change)
		if res.Novel {
			r.changedNovel++
		}
	}
	r.auc = rocAUC(r.changed, r.stable)
	r.maxStable, r.minChanged = slices.Max(r.stable), slices.Min(r.changed)
	r.gap = r.minChanged - r.maxStable
	// Compact against exact cosine, every pair.
	var sum float64
	for i, a := range used {
		if len(a.shares) == 0 {
			a.shares = exactShares(a.tree, p.By)
		}
		for _, b := range used[i+1:] {
			if b.shares == nil {
				b.shares = exactShares(b.tree, p.By)
			}
			va, vb := vecs[a], vecs[b]
			d := math.Abs(Cosine(&va, &vb) - exactCosine(a.shares, b.shares))
			sum += d
			r.errMax = max(r.errMax, d)
			r.pairs++
		}
	}
	for _, e := range used {
		e.shares = nil // by may differ in the next configuration
	}
	r.errMean = sum / float64(r.pairs)
	return r
}

// rocAUC is the probability that a changed score exceeds a stable one
// (ties count half): the area under the ROC curve, by Mann–Whitney.
func rocAUC(pos, neg []float64) float64 {
	var wins float64
	for _, p := range pos {
		for _, n := range neg {
			switch {
			case p > n:
				wins++
			case p == n:
				wins += 0.5
			}
		}
	}
	return wins / float64(len(pos)*len(neg))
}

func (r evalResult) row() string {
	return fmt.Sprintf("| %s | %d / %d | %.3f | %.4f | %.4f | %+.4f | %d / %d | %d / %d | %.4f | %.4f |",
		r.name, len(r.stable), len(r.changed), r.auc, r.maxStable, r.minChanged, r.gap,
		r.changedNovel, len(r.changed), r.stableFP, len(r.stable), r.errMean, r.errMax)
}

const evalHeader = "| configuration | stable / changed scores | ROC-AUC | highest stable | lowest changed | gap | changed flagged | stable flagged | cos error mean | cos error max |\n|---|---|---|---|---|---|---|---|---|---|"

// TestEvaluationOnRealProfiles is the offline evaluation of BENCHMARKS.md:
// real CPU profiles of two programs (30 stable of each by default, every
// recorded one with EMBERSCOPE_FULL=1) and 16 changed ones.
func TestEvaluationOnRealProfiles(t *testing.T) {
	ps := loadEvalProfiles(t)
	nStable := 30
	if fixtures.Full() {
		nStable = math.MaxInt
	}
	r := evaluate(t, ps, nStable, Params{}, Options{Method: MethodSigma})
	t.Logf("\n%s\n%s", evalHeader, r.row())
	var lines []string
	for i, n := range r.changedNames {
		lines = append(lines, fmt.Sprintf("%s %.4f", n, r.changed[i]))
	}
	sort.Strings(lines)
	t.Logf("changed scores:\n%s", strings.Join(lines, "\n"))
	require.GreaterOrEqual(t, len(r.stable), 2*(30-DefaultWarmUp), "stable scores of two programs")
	require.GreaterOrEqual(t, len(r.changed), 12)
	require.LessOrEqual(t, r.errMean, 0.01, "compact cosine close to exact on average")
	require.LessOrEqual(t, r.errMax, 0.05, "compact cosine close to exact for every pair")
	// Per series, as a threshold is applied, and per kind of change.
	for _, series := range []string{"rideshare", "logindex"} {
		var st, ch []float64
		for i, s := range r.stable {
			if r.stableSeries[i] == series {
				st = append(st, s)
			}
		}
		for i, s := range r.changed {
			if r.changedSeries[i] == series {
				ch = append(ch, s)
			}
		}
		t.Logf("series %s: ROC-AUC %.3f, highest stable %.4f, lowest changed %.4f", series, rocAUC(ch, st), slices.Max(st), slices.Min(ch))
	}
	for _, kind := range []string{"hot", "mix", "program"} {
		var ch []float64
		for i, s := range r.changed {
			if r.changedKinds[i] == kind {
				ch = append(ch, s)
			}
		}
		t.Logf("changes %s: ROC-AUC %.3f against all stable, lowest %.4f", kind, rocAUC(ch, r.stable), slices.Min(ch))
		if kind != "mix" {
			// A new hot function of 10–30 % and a different program score
			// above every stable profile of both programs.
			require.Greater(t, slices.Min(ch), r.maxStable, "every %s change scores above every stable profile", kind)
		}
	}
	// The aim, pooled over both programs, with the 10–30 point mix
	// shifts (the lowest changed scores: see BENCHMARKS.md).
	require.GreaterOrEqual(t, r.auc, 0.95, "changed profiles score above stable ones")

	if !fixtures.Full() {
		return
	}
	rows := []string{r.row()}
	for _, c := range []struct {
		p Params
		o Options
	}{
		{Params{}, Options{Cluster: true}},
		{Params{By: ByStack}, Options{Method: MethodSigma}},
		{Params{K: 8, D: 64}, Options{Method: MethodSigma}},
		{Params{K: 64, D: 512}, Options{Method: MethodSigma}},
		{Params{}, Options{History: 5}},
	} {
		rows = append(rows, evaluate(t, ps, nStable, c.p, c.o).row())
	}
	t.Logf("\n%s\n%s", evalHeader, strings.Join(rows, "\n"))
}
