// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/grafana/grafana-plugin-sdk-go/data"
	"github.com/prometheus/prometheus/model/labels"

	"github.com/emberscope/emberscope/pkg/datasource/dataframes"
	"github.com/emberscope/emberscope/pkg/datasource/query"
	"github.com/emberscope/emberscope/pkg/datasource/source"
	"github.com/emberscope/emberscope/pkg/profile/model"
	"github.com/emberscope/emberscope/pkg/profile/novelty"
)

// QueryTypeNovelty scores each profile (or, on servers without vectors,
// each step window) of each series against the recent history of that
// series.
const QueryTypeNovelty = "novelty"

const (
	// noveltyMaxWindows bounds the windows of one novelty query per series
	// on servers without vectors; a finer step is widened to fit.
	noveltyMaxWindows = 200
	// noveltyMaxNodes is the node budget asked per window: the vector only
	// needs the functions that carry most self value.
	noveltyMaxNodes = 2048
	// noveltyConcurrency bounds the windows fetched at once, per series.
	noveltyConcurrency = 4
)

// noveltyModel is the query JSON's "novelty" object: scoring options, zero
// meaning the default.
type noveltyModel struct {
	// Method is "surprise" (default: how unlikely each profile's largest
	// move is under the series' own history), "sigma" (each function's move
	// in units of its own spread over the history) or "cosine".
	Method    string  `json:"method"`
	History   int     `json:"history"`
	Cluster   bool    `json:"cluster"`
	Threshold float64 `json:"threshold"`
	// FalseAlarmsPerDay is method surprise's sensitivity (default 1): how
	// many unchanged profiles a day a series may mark, at the series'
	// push interval (Interval, e.g. "15s"; default: measured per series,
	// the median time between its profiles or the step).
	FalseAlarmsPerDay float64 `json:"falseAlarmsPerDay"`
	Interval          string  `json:"interval"`
	// By is "function" (default) or "stack": the features of the vectors
	// built per window on servers without vectors (a store's vectors are
	// built at ingest, by its own setting).
	By string `json:"by"`
}

// parseNovelty reads the novelty options of a query.
func parseNovelty(raw *noveltyModel) (novelty.Options, novelty.Params, error) {
	var m noveltyModel
	if raw != nil {
		m = *raw
	}
	var interval time.Duration
	if m.Interval != "" {
		d, err := time.ParseDuration(m.Interval)
		if err != nil || d <= 0 {
			return novelty.Options{}, novelty.Params{}, userErrorf("novelty.interval: %q is not a positive duration such as 15s", m.Interval)
		}
		interval = d
	}
	o := novelty.Options{Method: m.Method, History: m.History, Cluster: m.Cluster, Threshold: m.Threshold, FalseAlarmsPerDay: m.FalseAlarmsPerDay, Interval: interval}
	if _, err := o.WithDefaults(); err != nil {
		return o, novelty.Params{}, userErrorf("novelty: %v", err)
	}
	by, err := novelty.ParseBy(m.By)
	if err != nil {
		return o, novelty.Params{}, userErrorf("novelty.by: %v", err)
	}
	return o, novelty.Params{By: by}, nil
}

// noveltySeries is one series of a novelty query: its labels and the
// selector that picks it.
type noveltySeries struct {
	labels   model.Labels
	selector string
}

// queryNovelty answers a "novelty" query. It only adapts package novelty:
// it lists the series (one per value set of the group-by), gets each
// one's points — per-profile vectors when the server keeps them, else one
// merged tree per step window made into a vector — scores them with
// novelty.ScoreSeries, and turns the results into a score frame per series
// and an annotations frame of the novel points.
func (d *Datasource) queryNovelty(ctx context.Context, r *request) (data.Frames, error) {
	opts, params, err := parseNovelty(r.Novelty)
	if err != nil {
		return nil, err
	}
	series, dropped, err := d.noveltySeries(ctx, r)
	if err != nil {
		return nil, err
	}
	var (
		scores   []dataframes.NoveltySeries
		novel    []dataframes.NovelPoint
		scored   int
		notices  []data.Notice
		windowed bool
	)
	for _, s := range series {
		pts, how, err := d.noveltyPoints(ctx, r, s, params)
		if err != nil {
			return nil, err
		}
		if how.windowed {
			windowed = true
			if how.widened > 0 && len(notices) == 0 {
				notices = append(notices, data.Notice{Severity: data.NoticeSeverityInfo, Text: fmt.Sprintf(
					"Scoring %d windows of %s: %s, so each window's merged profile is scored, at most %d windows per series. Narrow the time range for a finer step.",
					how.windows, how.widened, windowReason(r), noveltyMaxWindows)})
			}
		}
		slices.SortStableFunc(pts, func(a, b novelty.Point) int { return a.Time.Compare(b.Time) })
		// The options in effect for this series (its own push interval).
		used, err := novelty.SeriesOptions(opts, pts)
		if err != nil {
			return nil, userErrorf("novelty: %v", err)
		}
		res, err := novelty.ScoreSeries(used, pts)
		if err != nil {
			return nil, err
		}
		ns := dataframes.NoveltySeries{Labels: s.labels, Selector: s.selector}
		for _, x := range res {
			p := dataframes.NoveltyPoint{From: x.Time, To: x.End, Score: x.Score, Sigma: used.Method == novelty.MethodSigma, Surprise: used.Method == novelty.MethodSurprise, MatchFrom: x.MatchTime, MatchTo: x.MatchEnd}
			ns.Points = append(ns.Points, p)
			if x.Novel {
				np := dataframes.NovelPoint{NoveltyPoint: p, Labels: s.labels, Threshold: used.Threshold, FalseAlarmsPerDay: used.FalseAlarmsPerDay, Interval: used.Interval}
				for _, c := range x.Changes {
					np.Changes = append(np.Changes, dataframes.NoveltyChange{Name: c.Name, From: c.From, To: c.To, Sigma: c.Sigma})
				}
				novel = append(novel, np)
			}
		}
		scores = append(scores, ns)
		scored += len(res)
	}
	if scored == 0 {
		if err := d.checkProfileType(ctx, r); err != nil {
			return nil, err
		}
	}
	if windowed && len(notices) == 0 {
		notices = append(notices, data.Notice{Severity: data.NoticeSeverityInfo,
			Text: strings.ToUpper(windowReason(r)[:1]) + windowReason(r)[1:] + ": each step window's merged profile is scored instead of each profile."})
	}
	out := data.Frames(dataframes.NoveltyScores(scores, dataframes.DiffLink{DatasourceUID: d.uid, ProfileTypeID: r.Query.ProfileTypeID}))
	if len(out) > 0 {
		out[0].AppendNotices(append(notices, noveltyNotices(scores, dropped, len(series), cmp.Or(opts.WarmUp, novelty.DefaultWarmUp))...)...)
	}
	return append(out, dataframes.NoveltyAnnotations(novel)), nil
}

// windowReason says why a query is scored per window.
func windowReason(r *request) string {
	if len(r.Query.Ops) > 0 {
		return "the query transforms its profiles (vectors are kept of whole profiles)"
	}
	return "the server keeps no per-profile vectors"
}

// pointsHow tells how a series' points were made.
type pointsHow struct {
	windowed bool
	windows  int
	// widened is the step used when the query's was widened to fit.
	widened time.Duration
}

// noveltyPoints returns the points of one series: per profile from a
// server that keeps vectors (the profiles of one push, split by sample
// labels into several series, merged into one point), else per window.
func (d *Datasource) noveltyPoints(ctx context.Context, r *request, s noveltySeries, params novelty.Params) ([]novelty.Point, pointsHow, error) {
	sel := source.Selection{ProfileTypeID: r.Query.ProfileTypeID, LabelSelector: s.selector, Range: r.Range}
	if vs, ok := d.src.(source.VectorSource); ok && len(r.Query.Ops) == 0 {
		pvs, err := vs.Vectors(ctx, sel)
		switch {
		case err == nil:
			ps := make([]novelty.Profile, len(pvs))
			for i, p := range pvs {
				ps[i] = novelty.Profile{Time: p.Time, Total: p.Total, Vector: p.Vector}
			}
			pts, err := novelty.ProfilePoints(ps)
			if err != nil {
				return nil, pointsHow{}, fmt.Errorf("novelty: %w", err)
			}
			for i := range pts {
				// A profile is one instant; the diff link reads [t, t+1ms).
				pts[i].End = pts[i].Time.Add(time.Millisecond)
			}
			return pts, pointsHow{}, nil
		case !errors.Is(err, source.ErrNoVectors):
			return nil, pointsHow{}, fmt.Errorf("novelty: vectors: %w", err)
		}
	}
	ws, step, widened, err := novelty.Windows(r.Range.From, r.Range.To, r.Step, noveltyMaxWindows)
	if err != nil {
		return nil, pointsHow{}, userErrorf("novelty: %v", err)
	}
	how := pointsHow{windowed: true, windows: len(ws)}
	if widened {
		how.widened = step
	}
	builder := func() (*novelty.Builder, error) { return novelty.NewBuilder(params) }
	if _, err := builder(); err != nil {
		return nil, how, userErrorf("%v", err)
	}
	pts, err := novelty.WindowPoints(ctx, ws, noveltyConcurrency, func(ctx context.Context, w novelty.Window) (novelty.Vector, error) {
		t, err := d.src.MergeStacks(ctx, source.StacksRequest{
			Selection: source.Selection{ProfileTypeID: r.Query.ProfileTypeID, LabelSelector: s.selector, Range: source.TimeRange{From: w.From, To: w.To}},
			MaxNodes:  noveltyMaxNodes,
		})
		if err != nil {
			return novelty.Vector{}, err
		}
		// Through the query's transforms (frames_from_label does not
		// apply: novelty compares the code's functions, not label values).
		if t, err = applyOps(t, r.Query.Ops); err != nil {
			return novelty.Vector{}, err
		}
		return novelty.FromTree(t, params)
	})
	if err != nil {
		return nil, how, fmt.Errorf("novelty: %w", err)
	}
	return pts, how, nil
}

// noveltyNotices tell what a user may otherwise misread: series left out by
// the limit, and series too short to flag anything.
func noveltyNotices(scores []dataframes.NoveltySeries, dropped, kept, warmUp int) []data.Notice {
	var out []data.Notice
	if dropped > 0 {
		out = append(out, data.Notice{
			Severity: data.NoticeSeverityInfo,
			Text:     fmt.Sprintf("Scoring the %d largest of %d series; raise the query's limit to score more.", kept, kept+dropped),
		})
	}
	short := 0
	for _, s := range scores {
		if len(s.Points) <= warmUp {
			short++
		}
	}
	if short > 0 {
		out = append(out, data.Notice{
			Severity: data.NoticeSeverityInfo,
			Text: fmt.Sprintf("%d of %d series have %d or fewer profiles: a profile can be novel only after %d of history. Widen the time range.",
				short, len(scores), warmUp, warmUp),
		})
	}
	return out
}

// noveltySeries lists the series to score: the whole selection without a
// group-by, else one per value set of the group-by labels seen in the range
// (the limit largest), each selected by the query's selector plus one
// equality matcher per group-by label ("" selecting profiles without it).
func (d *Datasource) noveltySeries(ctx context.Context, r *request) ([]noveltySeries, int, error) {
	if len(r.Query.GroupBy) == 0 {
		return []noveltySeries{{selector: r.Query.Selector}}, 0, nil
	}
	found, err := d.src.Series(ctx, source.SeriesRequest{Selection: r.selection(), GroupBy: r.Query.GroupBy, Step: r.Step})
	if err != nil {
		return nil, 0, err
	}
	kept, dropped := foldSeries(found, r.Limit, r.Query.GroupBy)
	if dropped > 0 {
		kept = kept[:len(kept)-1] // "other" sums several series: it cannot be selected
	}
	out := make([]noveltySeries, 0, len(kept))
	for _, s := range kept {
		var (
			ls model.Labels
			ms []*labels.Matcher
		)
		for _, name := range r.Query.GroupBy {
			value := ""
			for _, l := range s.Labels {
				if l.Name == name {
					value = l.Value
				}
			}
			ls = append(ls, model.Label{Name: name, Value: value})
			m, err := labels.NewMatcher(labels.MatchEqual, name, value)
			if err != nil {
				return nil, 0, fmt.Errorf("novelty: matcher for %s=%q: %w", name, value, err)
			}
			ms = append(ms, m)
		}
		sel, err := query.WithMatchers(r.Query.Selector, ms...)
		if err != nil {
			return nil, 0, fmt.Errorf("novelty: selector of series %v: %w", ls, err)
		}
		out = append(out, noveltySeries{labels: ls, selector: sel})
	}
	slices.SortFunc(out, func(a, b noveltySeries) int { return model.CompareLabels(a.labels, b.labels) })
	return out, dropped, nil
}

// baselineModel is a diff's optional "baseline" time range (epoch ms):
// the left side's range when it is not the query's (a novelty point's
// diff link compares two instants).
type baselineModel struct {
	From json.Number `json:"from"`
	To   json.Number `json:"to"`
}

// parseBaseline reads a diff's baseline range; nil keeps the query's.
func parseBaseline(b *baselineModel) (*source.TimeRange, error) {
	if b == nil || (b.From == "" && b.To == "") {
		return nil, nil
	}
	from, err := b.From.Int64()
	if err != nil || from <= 0 {
		return nil, userErrorf("baseline.from: %q is not a time in epoch milliseconds", b.From.String())
	}
	to, err := b.To.Int64()
	if err != nil || to <= 0 {
		return nil, userErrorf("baseline.to: %q is not a time in epoch milliseconds", b.To.String())
	}
	if from >= to {
		return nil, userErrorf("baseline: from %d is not before to %d", from, to)
	}
	return &source.TimeRange{From: time.UnixMilli(from).UTC(), To: time.UnixMilli(to).UTC()}, nil
}
