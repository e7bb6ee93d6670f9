// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/google/pprof/profile"
	"github.com/grafana/grafana-plugin-sdk-go/data"
	"golang.org/x/sync/errgroup"

	"github.com/emberscope/emberscope/pkg/datasource/query"
	"github.com/emberscope/emberscope/pkg/datasource/source"
	"github.com/emberscope/emberscope/pkg/profile/model"
)

// functionShareConcurrency bounds the windowed merges of one function-share
// query in flight.
const functionShareConcurrency = 4

// queryFunctionShare answers a "functionShare" query: per step and series
// (one per value set of the group-by), the share of the samples whose stack
// holds a picked function — each sample counted once, however often the
// function is on its stack — in the step's whole. Series APIs cannot filter
// by function, so each step is a merge of its window into one pprof profile,
// whose samples are read as they are. A step without samples has no point
// (its share is undefined), so an alert sees "no data" rather than 0 %.
func (d *Datasource) queryFunctionShare(ctx context.Context, r *request) (data.Frames, error) {
	match, err := query.ParseFunctionMatch(r.Function, r.FunctionRegex)
	if err != nil {
		return nil, err
	}
	if len(r.Query.Ops) > 0 {
		return nil, userErrorf("functionShare: the expression's transforms do not apply to a function's share; remove them")
	}
	pt, err := model.ParseProfileType(r.Query.ProfileTypeID)
	if err != nil {
		return nil, userErrorf("profileTypeId: %v", err)
	}
	series, _, err := d.noveltySeries(ctx, r)
	if err != nil {
		return nil, err
	}
	var windows []time.Time
	for from := r.Range.From; from.Before(r.Range.To); from = from.Add(r.Step) {
		windows = append(windows, from)
	}
	if n := len(windows) * len(series); n > maxCallSiteSteps {
		return nil, userErrorf("functionShare: %d series of %d steps of %s, more than the %d merges a function share may ask for; widen the step, shorten the range or group by fewer labels",
			len(series), len(windows), r.Step, maxCallSiteSteps)
	}
	out := make(data.Frames, 0, len(series))
	points := 0
	for _, s := range series {
		shares, err := d.functionShares(ctx, r, s.selector, windows, pt, match)
		if err != nil {
			return nil, err
		}
		f := functionShareFrame(s.labels, match, windows, shares)
		points += f.Rows()
		out = append(out, f)
	}
	if points == 0 {
		if err := d.checkProfileType(ctx, r); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// stepShare is one step's share, and the function's samples (held) in the
// step's whole (total); ok is false when the step has no samples.
type stepShare struct {
	share       float64
	held, total int64
	ok          bool
}

// functionShares merges each window of one series and reads its share.
func (d *Datasource) functionShares(ctx context.Context, r *request, selector string, windows []time.Time, pt model.ProfileType, match *query.FunctionMatch) ([]stepShare, error) {
	shares := make([]stepShare, len(windows))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(functionShareConcurrency)
	for i, from := range windows {
		g.Go(func() error {
			// Ranges are closed: a window ends a millisecond before the next.
			to := from.Add(r.Step - time.Millisecond)
			if to.After(r.Range.To) {
				to = r.Range.To
			}
			p, err := d.src.MergeProfile(gctx, source.StacksRequest{Selection: source.Selection{
				ProfileTypeID: r.Query.ProfileTypeID, LabelSelector: selector,
				Range: source.TimeRange{From: from, To: to},
			}})
			if err != nil {
				return err
			}
			held, total, err := functionSamples(p, pt, match)
			if err != nil {
				return err
			}
			if total != 0 {
				shares[i] = stepShare{share: float64(held) / float64(total), held: held, total: total, ok: true}
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return shares, nil
}

// functionSamples sums the profile type's value over the samples whose
// stack holds a picked function (inlined frames included), each sample once,
// and over all samples.
func functionSamples(p *profile.Profile, pt model.ProfileType, match *query.FunctionMatch) (held, total int64, err error) {
	if p == nil || len(p.Sample) == 0 {
		return 0, 0, nil
	}
	idx := -1
	for i, st := range p.SampleType {
		if st.Type == pt.SampleType && (st.Unit == pt.SampleUnit || idx < 0) {
			idx = i
		}
	}
	if idx < 0 {
		if len(p.SampleType) != 1 {
			return 0, 0, fmt.Errorf("functionShare: the merged profile has no %s sample type", pt.SampleType)
		}
		idx = 0
	}
	matched := map[uint64]bool{}
	for _, s := range p.Sample {
		v := s.Value[idx]
		total += v
		if stackHolds(s, match, matched) {
			held += v
		}
	}
	return held, total, nil
}

// stackHolds reports whether a sample's stack holds a picked function,
// remembering each location's answer.
func stackHolds(s *profile.Sample, match *query.FunctionMatch, matched map[uint64]bool) bool {
	for _, loc := range s.Location {
		hit, seen := matched[loc.ID]
		if !seen {
			for _, line := range loc.Line {
				if line.Function != nil && match.Matches(line.Function.Name) {
					hit = true
					break
				}
			}
			matched[loc.ID] = hit
		}
		if hit {
			return true
		}
	}
	return false
}

// functionShareFrame is one series' shares as a "timeseries-multi" frame:
// a time field and a "share" field (0 to 1) labelled with the series labels
// and the function picked.
func functionShareFrame(ls model.Labels, match *query.FunctionMatch, windows []time.Time, shares []stepShare) *data.Frame {
	var (
		times  []time.Time
		values []float64
	)
	for i, s := range shares {
		if s.ok {
			times = append(times, windows[i].UTC())
			values = append(values, s.share)
		}
	}
	labels := data.Labels{"function": match.String()}
	for _, l := range ls {
		labels[l.Name] = l.Value
	}
	share := data.NewField("share", labels, values)
	share.Config = &data.FieldConfig{Unit: "percentunit", DisplayNameFromDS: strings.TrimSpace("share of " + match.String() + " " + displayLabels(ls))}
	f := data.NewFrame("functionShare", data.NewField("time", nil, times), share)
	f.Meta = &data.FrameMeta{
		Type:                   data.FrameTypeTimeSeriesMulti,
		TypeVersion:            data.FrameTypeVersion{0, 1},
		PreferredVisualization: data.VisTypeGraph,
	}
	return f
}

// displayLabels is {a="x", b="y"}, or "" without labels.
func displayLabels(ls model.Labels) string {
	if len(ls) == 0 {
		return ""
	}
	parts := make([]string, len(ls))
	for i, l := range ls {
		parts[i] = fmt.Sprintf("%s=%q", l.Name, l.Value)
	}
	return "{" + strings.Join(parts, ", ") + "}"
}
