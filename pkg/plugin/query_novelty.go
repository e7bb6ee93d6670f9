package plugin

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/grafana/grafana-plugin-sdk-go/data"
	"github.com/prometheus/prometheus/model/labels"
	"golang.org/x/sync/errgroup"

	"github.com/emberscope/emberscope/pkg/flame"
	"github.com/emberscope/emberscope/pkg/frames"
	"github.com/emberscope/emberscope/pkg/novelty"
	"github.com/emberscope/emberscope/pkg/query"
	"github.com/emberscope/emberscope/pkg/source"
)

// QueryTypeNovelty scores each window of each series against the recent
// history of that series.
const QueryTypeNovelty = "novelty"

const (
	// noveltyMaxWindows bounds the windows of one novelty query (per series).
	noveltyMaxWindows = 1000
	// noveltyMaxNodes is the node budget asked per window: the vector only
	// needs the frames that carry most self value.
	noveltyMaxNodes = 2048
	// noveltyConcurrency bounds the windows fetched (or fetched and waiting
	// to be scored) at once, per series.
	noveltyConcurrency = 4
	// noveltyTopChanges is how many grown frames a novel window names.
	noveltyTopChanges = 3
)

// window is one step of a novelty query: [From, To] with To inclusive at
// millisecond precision, as the querier API reads ranges.
type window struct{ From, To time.Time }

// noveltyWindows splits the range into windows of step from its start (as
// the embedded store buckets series), the last one cut at the range's end.
func noveltyWindows(r source.TimeRange, step time.Duration) ([]window, error) {
	if step <= 0 {
		return nil, userErrorf("novelty: the step is %s: set the query's interval, max data points or the datasource's minimum step", step)
	}
	from := r.From.Truncate(time.Millisecond)
	span := r.To.Sub(from)
	n := int64((span + step - 1) / step)
	if n > noveltyMaxWindows {
		return nil, userErrorf("novelty: a step of %s splits the %s range into %d windows; at most %d are scored: raise the step (the query's interval or min interval) or narrow the time range",
			step, span, n, noveltyMaxWindows)
	}
	out := make([]window, 0, n)
	for start := from; start.Before(r.To); start = start.Add(step) {
		end := start.Add(step - time.Millisecond)
		if next := start.Add(step); !next.Before(r.To) {
			end = r.To
		}
		out = append(out, window{From: start, To: end})
	}
	return out, nil
}

// noveltySeries is one series of a novelty query: its labels and the
// selector that picks it.
type noveltySeries struct {
	labels   []source.Label
	selector string
}

// queryNovelty answers a "novelty" query: the range is cut into windows of
// the query's step; each window's merged stacks (per series of the query's
// group-by) are summarised into a vector, the tree dropped, and the vectors
// scored in time order against the series' history. It returns one score
// series per series and an annotations frame marking the novel windows with
// the frames whose self share grew most.
func (d *Datasource) queryNovelty(ctx context.Context, r *request) (data.Frames, error) {
	windows, err := noveltyWindows(r.Range, r.Step)
	if err != nil {
		return nil, err
	}
	series, dropped, err := d.noveltySeries(ctx, r)
	if err != nil {
		return nil, err
	}
	scorer, err := novelty.NewScorer(novelty.Options{})
	if err != nil {
		return nil, err
	}
	var (
		scores []frames.NoveltySeries
		novel  []frames.NovelWindow
		scored int
	)
	for _, s := range series {
		pts, nov, err := d.scoreSeries(ctx, r, scorer, s, windows)
		if err != nil {
			return nil, err
		}
		scores = append(scores, frames.NoveltySeries{Labels: s.labels, Points: pts})
		novel = append(novel, nov...)
		scored += len(pts)
	}
	if scored == 0 {
		if err := d.checkProfileType(ctx, r); err != nil {
			return nil, err
		}
	}
	out := data.Frames(frames.NoveltyScores(scores))
	if len(out) > 0 {
		out[0].AppendNotices(noveltyNotices(scores, dropped, len(series), scorer.Options().WarmUp)...)
	}
	return append(out, frames.NoveltyAnnotations(novel)), nil
}

// noveltyNotices tell what a user may otherwise misread: series left out by
// the limit, and series too short to flag anything.
func noveltyNotices(scores []frames.NoveltySeries, dropped, kept, warmUp int) []data.Notice {
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
			Text: fmt.Sprintf("%d of %d series have %d or fewer windows with profiles: a window can be novel only after %d windows of history. Widen the time range or lower the step.",
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
			ls []source.Label
			ms []*labels.Matcher
		)
		for _, name := range r.Query.GroupBy {
			value := ""
			for _, l := range s.Labels {
				if l.Name == name {
					value = l.Value
				}
			}
			ls = append(ls, source.Label{Name: name, Value: value})
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
	slices.SortFunc(out, func(a, b noveltySeries) int { return compareLabels(a.labels, b.labels) })
	return out, dropped, nil
}

// compareLabels orders label lists of the same names by their values.
func compareLabels(a, b []source.Label) int {
	for i := range min(len(a), len(b)) {
		if a[i].Value != b[i].Value {
			if a[i].Value < b[i].Value {
				return -1
			}
			return 1
		}
	}
	return len(a) - len(b)
}

// scoreSeries fetches the windows of one series a few at a time, summarises
// each tree as soon as it arrives (the tree is dropped there), and scores the
// summaries in time order. At most noveltyConcurrency windows are in flight
// or waiting to be scored, so memory stays bounded whatever the range.
func (d *Datasource) scoreSeries(ctx context.Context, r *request, scorer *novelty.Scorer, s noveltySeries, windows []window) ([]frames.NoveltyPoint, []frames.NovelWindow, error) {
	g, gctx := errgroup.WithContext(ctx)
	slots := make([]chan novelty.Summary, len(windows))
	for i := range slots {
		slots[i] = make(chan novelty.Summary, 1)
	}
	sem := make(chan struct{}, noveltyConcurrency)
	g.Go(func() error {
		for i, w := range windows {
			select {
			case sem <- struct{}{}:
			case <-gctx.Done():
				return nil
			}
			g.Go(func() error {
				t, err := d.windowTree(gctx, r, s.selector, w)
				if err != nil {
					return fmt.Errorf("novelty: window %s to %s: %w", w.From.UTC().Format(time.RFC3339), w.To.UTC().Format(time.RFC3339), err)
				}
				slots[i] <- novelty.NewSummary(t)
				return nil
			})
		}
		return nil
	})

	key := labelKey(s.labels)
	var (
		points []frames.NoveltyPoint
		novel  []frames.NovelWindow
		prev   novelty.Summary
	)
consume:
	for i, w := range windows {
		var sum novelty.Summary
		select {
		case sum = <-slots[i]:
			<-sem
		case <-gctx.Done():
			break consume
		}
		sc, ok := scorer.Score(key, sum.Vector)
		if !ok {
			continue // no profiles in this window
		}
		points = append(points, frames.NoveltyPoint{Time: w.From, Score: sc.Distance})
		if sc.Novel {
			nw := frames.NovelWindow{From: w.From, To: w.To, Labels: s.labels, Score: sc.Distance, Threshold: sc.Threshold}
			for _, rise := range sum.Rises(prev, noveltyTopChanges) {
				nw.Changes = append(nw.Changes, frames.NoveltyChange{Name: rise.Name, From: rise.From, To: rise.To})
			}
			novel = append(novel, nw)
		}
		prev = sum // the summary before it is dropped here
	}
	if err := g.Wait(); err != nil {
		return nil, nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	return points, novel, nil
}

// windowTree is the merged tree of one series in one window, through the
// query's transforms (frames_from_label does not apply: novelty compares
// frames of the code, not label values).
func (d *Datasource) windowTree(ctx context.Context, r *request, selector string, w window) (*flame.Tree, error) {
	t, err := d.src.MergeStacks(ctx, source.StacksRequest{
		Selection: source.Selection{ProfileTypeID: r.Query.ProfileTypeID, LabelSelector: selector, Range: source.TimeRange{From: w.From, To: w.To}},
		MaxNodes:  noveltyMaxNodes,
	})
	if err != nil {
		return nil, err
	}
	return applyOps(t, r.Query.Ops)
}
