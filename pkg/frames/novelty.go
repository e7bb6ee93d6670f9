package frames

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/grafana/grafana-plugin-sdk-go/data"

	"github.com/emberscope/emberscope/pkg/model"
)

// NoveltyPoint is the novelty score of one window of a series.
type NoveltyPoint struct {
	// Time is the start of the window.
	Time time.Time
	// Score is the window's distance to the series' recent history, 0..1.
	Score float64
}

// NoveltySeries is the scores over time of one series.
type NoveltySeries struct {
	Labels model.Labels
	Points []NoveltyPoint
}

// NoveltyChange is a frame whose self share grew in a novel window.
type NoveltyChange struct {
	Name string
	// From and To are its self share (0..1) in the previous window and in
	// this one.
	From, To float64
}

// NovelWindow is a window whose profile was novel for its series.
type NovelWindow struct {
	From, To  time.Time
	Labels    model.Labels
	Score     float64
	Threshold float64
	// Changes are the frames whose self share grew most, largest first.
	Changes []NoveltyChange
}

// NoveltyScores returns one frame per series (the "timeseries-multi"
// shape): a "time" field and a float64 "score" field (0..1) carrying the
// series labels, displayed as "novelty" followed by the label set.
func NoveltyScores(series []NoveltySeries) []*data.Frame {
	out := make([]*data.Frame, 0, len(series))
	for _, s := range series {
		times := make([]time.Time, len(s.Points))
		scores := make([]float64, len(s.Points))
		for i, p := range s.Points {
			times[i] = p.Time.UTC()
			scores[i] = p.Score
		}
		score := data.NewField("score", noveltyFieldLabels(s.Labels), scores)
		lo, hi := 0.0, 1.0
		score.Config = &data.FieldConfig{
			DisplayNameFromDS: strings.TrimSpace("novelty " + displayName(s.Labels, "")),
			Min:               (*data.ConfFloat64)(&lo),
			Max:               (*data.ConfFloat64)(&hi),
			Description:       "Cosine distance of each window's profile to the recent history of its series: 0 is the usual mix of frames, 1 nothing in common.",
		}
		f := data.NewFrame("novelty", data.NewField("time", nil, times), score)
		f.Meta = &data.FrameMeta{
			Type:                   data.FrameTypeTimeSeriesMulti,
			TypeVersion:            data.FrameTypeVersion{0, 1},
			PreferredVisualization: data.VisTypeGraph,
		}
		out = append(out, f)
	}
	return out
}

// NoveltyAnnotations returns the novel windows as an annotations frame
// (meta.dataTopic "annotations", which Grafana draws over the panel's
// time series): fields time and timeEnd (the window, so each shows as a
// region), title ("Novel profile" and the series labels), text (the score,
// the threshold and the frames that grew most) and tags ("novelty" and one
// name=value per series label, comma separated as Grafana splits them).
// Windows are written in time order, then by label set.
func NoveltyAnnotations(windows []NovelWindow) *data.Frame {
	ws := slices.Clone(windows)
	slices.SortStableFunc(ws, func(a, b NovelWindow) int {
		if c := a.From.Compare(b.From); c != 0 {
			return c
		}
		return strings.Compare(displayName(a.Labels, ""), displayName(b.Labels, ""))
	})
	n := len(ws)
	var (
		start = make([]time.Time, n)
		end   = make([]time.Time, n)
		title = make([]string, n)
		text  = make([]string, n)
		tags  = make([]string, n)
		score = make([]float64, n)
	)
	for i, w := range ws {
		start[i], end[i] = w.From.UTC(), w.To.UTC()
		title[i] = strings.TrimSpace("Novel profile " + displayName(w.Labels, ""))
		text[i] = noveltyText(w)
		tags[i] = noveltyTags(w.Labels)
		score[i] = w.Score
	}
	f := data.NewFrame("novelty annotations",
		data.NewField("time", nil, start),
		data.NewField("timeEnd", nil, end),
		data.NewField("title", nil, title),
		data.NewField("text", nil, text),
		data.NewField("tags", nil, tags),
		data.NewField("score", nil, score),
	)
	f.Meta = &data.FrameMeta{DataTopic: data.DataTopicAnnotations}
	return f
}

// noveltyText says why a window is novel.
func noveltyText(w NovelWindow) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Novelty score %.2f (threshold %.2f).", w.Score, w.Threshold)
	if len(w.Changes) > 0 {
		b.WriteString(" Grew most:")
		for i, c := range w.Changes {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, " %s (%s → %s of self)", c.Name, percent(c.From), percent(c.To))
		}
		b.WriteByte('.')
	}
	return b.String()
}

func percent(share float64) string { return fmt.Sprintf("%.1f%%", 100*share) }

// noveltyTags is "novelty" and name=value per label; commas inside values are
// replaced by spaces, since Grafana splits tags on commas.
func noveltyTags(labels model.Labels) string {
	sorted := slices.Clone(labels)
	slices.SortFunc(sorted, func(a, b model.Label) int { return strings.Compare(a.Name, b.Name) })
	tags := []string{"novelty"}
	for _, l := range sorted {
		tags = append(tags, strings.ReplaceAll(l.Name+"="+l.Value, ",", " "))
	}
	return strings.Join(tags, ",")
}

// noveltyFieldLabels turns series labels into field labels (nil when there are none).
func noveltyFieldLabels(ls model.Labels) data.Labels {
	if len(ls) == 0 {
		return nil
	}
	out := make(data.Labels, len(ls))
	for _, l := range ls {
		out[l.Name] = l.Value
	}
	return out
}
