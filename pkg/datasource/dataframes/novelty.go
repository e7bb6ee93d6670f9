// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package dataframes

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/grafana/grafana-plugin-sdk-go/data"

	"github.com/emberscope/emberscope/pkg/profile/model"
)

// NoveltyPoint is the novelty score of one profile (From equal to To) or
// one step window [From, To] of a series.
type NoveltyPoint struct {
	From, To time.Time
	// Score is the profile's move against the series' recent history: in σ
	// of each function's own spread (method sigma, Sigma true), else 1 − the
	// highest cosine similarity (or the distance to the nearest pattern),
	// 0..1.
	Score float64
	Sigma bool
	// Surprise marks a score of method surprise: −log₁₀ of the chance that
	// the series' usual variation moves a share as far.
	Surprise bool
	// MatchFrom and MatchTo are the most similar earlier profile (or
	// window); zero for the first point of a series.
	MatchFrom, MatchTo time.Time
}

// NoveltySeries is the scores over time of one series; Selector selects
// it (the query's selector plus its group-by labels).
type NoveltySeries struct {
	Labels   model.Labels
	Selector string
	Points   []NoveltyPoint
}

// NoveltyChange is a function (or stack) whose self share moved against
// what a novel profile matched.
type NoveltyChange struct {
	Name string
	// From is its self share (0..1) in the match (method sigma: its mean
	// over the history), To in the novel profile.
	From, To float64
	// Sigma is the move in units of the share's spread over the history
	// (method sigma); 0 when not measured.
	Sigma float64
}

// NovelPoint is a profile (or window) that was novel for its series.
type NovelPoint struct {
	NoveltyPoint
	Labels    model.Labels
	Threshold float64
	// FalseAlarmsPerDay and Interval are what the threshold of a surprise
	// score allows: false alarms a day at a push every Interval.
	FalseAlarmsPerDay float64
	Interval          time.Duration
	// Changes are the functions whose share moved most, largest first.
	Changes []NoveltyChange
}

// DiffLink is what the score frames need to link a point to the diff of
// its profile against its match: the datasource and the query's type.
type DiffLink struct {
	DatasourceUID  string
	DatasourceName string
	ProfileTypeID  string
}

// NoveltyScores returns one frame per series (the "timeseries-multi"
// shape): a "time" field and a float64 "score" field (0..1) carrying the
// series labels, displayed as "novelty" followed by the label set, then
// four string fields a data link reads (the point's and its match's range
// in unix milliseconds, "" without a match; strings so that graphs do not
// draw them). With a datasource UID, the score field links each point to
// the diff of the most similar earlier profile (left) against it (right).
func NoveltyScores(series []NoveltySeries, link DiffLink) []*data.Frame {
	out := make([]*data.Frame, 0, len(series))
	for _, s := range series {
		n := len(s.Points)
		times := make([]time.Time, n)
		scores := make([]float64, n)
		from, to, mFrom, mTo := make([]string, n), make([]string, n), make([]string, n), make([]string, n)
		for i, p := range s.Points {
			times[i] = p.From.UTC()
			scores[i] = p.Score
			from[i], to[i] = ms(p.From), ms(p.To)
			if !p.MatchFrom.IsZero() {
				mFrom[i], mTo[i] = ms(p.MatchFrom), ms(p.MatchTo)
			}
		}
		score := data.NewField("score", noveltyFieldLabels(s.Labels), scores)
		lo, hi := 0.0, 1.0
		score.Config = &data.FieldConfig{
			DisplayNameFromDS: strings.TrimSpace("novelty " + displayName(s.Labels, "")),
			Min:               (*data.ConfFloat64)(&lo),
			Max:               (*data.ConfFloat64)(&hi),
			Description:       "1 − the highest cosine similarity of each profile to the recent profiles of its series: 0 is the usual mix of functions, 1 nothing in common.",
		}
		if len(s.Points) > 0 && s.Points[0].Surprise {
			score.Config.Max = nil
			score.Config.Description = "How surprising each profile is against the recent profiles of its series, its sampling noise and the series' usual variation counted: a surprise of s is a move of some share (a function, a package, a function with its callees) that the usual variation makes once in 10^s profiles. The default threshold allows one false alarm a day at the series' push interval."
		}
		if seriesSigma(s) {
			score.Config.Max = nil
			score.Config.Unit = "σ"
			score.Config.Description = "How far each profile's shares (of functions, packages and functions with their callees) moved from their usual shares over the recent profiles of its series, in units of each share's own spread (σ): the norm of the three largest moves. Profiles of the usual mix mostly score below 5; the default threshold is 7."
		}
		if link.DatasourceUID != "" {
			score.Config.Links = []data.DataLink{diffLink(link, s.Selector)}
		}
		f := data.NewFrame("novelty",
			data.NewField("time", nil, times), score,
			data.NewField("profileFrom", nil, from), data.NewField("profileTo", nil, to),
			data.NewField("matchFrom", nil, mFrom), data.NewField("matchTo", nil, mTo))
		f.Meta = &data.FrameMeta{
			Type:                   data.FrameTypeTimeSeriesMulti,
			TypeVersion:            data.FrameTypeVersion{0, 1},
			PreferredVisualization: data.VisTypeGraph,
		}
		out = append(out, f)
	}
	return out
}

// seriesSigma reports whether a series' scores are in σ.
func seriesSigma(s NoveltySeries) bool {
	return len(s.Points) > 0 && s.Points[0].Sigma
}

// ms is t in unix milliseconds, as a diff query's comparison reads times.
func ms(t time.Time) string { return strconv.FormatInt(t.UnixMilli(), 10) }

// diffLink opens, in Explore, the diff of a point's match (the baseline,
// left) against the point (right), both on the series' selector; Grafana
// fills the ${__data.fields.*} variables from the clicked row.
func diffLink(l DiffLink, selector string) data.DataLink {
	return data.DataLink{
		Title: "Diff against the most similar earlier profile",
		Internal: &data.InternalDataLink{
			DatasourceUID:  l.DatasourceUID,
			DatasourceName: l.DatasourceName,
			Query: map[string]any{
				"queryType":     "diff",
				"profileTypeId": l.ProfileTypeID,
				"labelSelector": selector,
				"baseline":      map[string]any{"from": "${__data.fields.matchFrom}", "to": "${__data.fields.matchTo}"},
				"comparison": map[string]any{
					"labelSelector": selector,
					"from":          "${__data.fields.profileFrom}",
					"to":            "${__data.fields.profileTo}",
				},
			},
		},
	}
}

// NoveltyAnnotations returns the novel points as an annotations frame
// (meta.dataTopic "annotations", which Grafana draws over the panel's
// time series): fields time and timeEnd (the profile, or the window as a
// region), title ("Novel profile" and the series labels), text (the score,
// the threshold and the functions whose share moved most), tags ("novelty"
// and one name=value per series label, comma separated as Grafana splits
// them) and score. Points are written in time order, then by label set.
func NoveltyAnnotations(points []NovelPoint) *data.Frame {
	ps := slices.Clone(points)
	slices.SortStableFunc(ps, func(a, b NovelPoint) int {
		if c := a.From.Compare(b.From); c != 0 {
			return c
		}
		return strings.Compare(displayName(a.Labels, ""), displayName(b.Labels, ""))
	})
	n := len(ps)
	var (
		start = make([]time.Time, n)
		end   = make([]time.Time, n)
		title = make([]string, n)
		text  = make([]string, n)
		tags  = make([]string, n)
		score = make([]float64, n)
	)
	for i, p := range ps {
		start[i], end[i] = p.From.UTC(), p.To.UTC()
		title[i] = strings.TrimSpace("Novel profile " + displayName(p.Labels, ""))
		text[i] = noveltyText(p)
		tags[i] = noveltyTags(p.Labels)
		score[i] = p.Score
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

// noveltyText says why a point is novel.
func noveltyText(p NovelPoint) string {
	var b strings.Builder
	switch {
	case p.Surprise:
		alarms := strconv.FormatFloat(p.FalseAlarmsPerDay, 'g', 2, 64) + " false alarms"
		if p.FalseAlarmsPerDay == 1 {
			alarms = "1 false alarm"
		}
		fmt.Fprintf(&b, "Novelty: a move this series' usual variation makes about once in %s profiles (surprise %.1f; threshold %.1f: %s a day at a push every %s).",
			onceIn(p.Score), p.Score, p.Threshold, alarms, p.Interval)
	case p.Sigma:
		fmt.Fprintf(&b, "Novelty %.1f σ (threshold %.1f σ).", p.Score, p.Threshold)
	default:
		fmt.Fprintf(&b, "Novelty score %.2f (threshold %.2f).", p.Score, p.Threshold)
	}
	if len(p.Changes) > 0 {
		b.WriteString(" Moved most:")
		for i, c := range p.Changes {
			if i > 0 {
				b.WriteByte(',')
			}
			if p.Sigma || p.Surprise {
				fmt.Fprintf(&b, " %s %s → %s (%s)", c.Name, sharePercent(c.From), sharePercent(c.To), sigmaText(c.Sigma))
			} else {
				fmt.Fprintf(&b, " %s (%s → %s of self)", c.Name, percent(c.From), percent(c.To))
			}
		}
		b.WriteByte('.')
	}
	if !p.MatchFrom.IsZero() {
		fmt.Fprintf(&b, " Most similar earlier profile: %s.", p.MatchFrom.UTC().Format(time.RFC3339))
	}
	return b.String()
}

// onceIn is 10^surprise as a person reads it: "16,000", "1.6 million".
func onceIn(surprise float64) string {
	x := math.Pow(10, surprise)
	switch {
	case surprise >= 12:
		return fmt.Sprintf("10^%.0f", surprise)
	case x >= 1e9:
		return fmt.Sprintf("%.2g billion", x/1e9)
	case x >= 1e6:
		return fmt.Sprintf("%.2g million", x/1e6)
	case x >= 1e4:
		n := strconv.FormatFloat(x, 'f', 0, 64)
		return n[:len(n)-3] + "," + n[len(n)-3:]
	}
	return strconv.FormatFloat(math.Round(x), 'f', 0, 64)
}

func percent(share float64) string { return fmt.Sprintf("%.1f%%", 100*share) }

// sharePercent is a share as a person reads it: "18 %", or "0.4 %" below
// ten percent.
func sharePercent(share float64) string {
	if p := 100 * share; math.Round(p) >= 10 {
		return fmt.Sprintf("%.0f %%", p)
	}
	return fmt.Sprintf("%.1f %%", 100*share)
}

// sigmaText is a move in σ: "+9 σ", "−3 σ" (to one decimal below 10).
func sigmaText(z float64) string {
	sign := "+"
	if z < 0 {
		sign = "−"
	}
	a := math.Abs(z)
	if math.Round(a) >= 10 {
		return fmt.Sprintf("%s%.0f σ", sign, a)
	}
	return fmt.Sprintf("%s%.1f σ", sign, a)
}

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
