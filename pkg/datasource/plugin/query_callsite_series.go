// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"context"
	"strings"
	"time"

	"github.com/grafana/grafana-plugin-sdk-go/data"
	"golang.org/x/sync/errgroup"

	"github.com/emberscope/emberscope/pkg/datasource/dataframes"
)

// callSiteSeriesConcurrency bounds the windowed merges of one call path
// series in flight.
const callSiteSeriesConcurrency = 4

// maxCallSiteSteps bounds the windows of one call path series: each is a
// merge of its own.
const maxCallSiteSteps = 2000

// queryCallSiteSeries answers a "callSiteSeries" query: per step, the value
// of the query's callSite and its share of the step's whole total. Series
// APIs ignore a call site selector, so each step is a merge of its window
// (the call site selected as a focused flamegraph selects it), at most
// callSiteSeriesConcurrency at once. The frame has time, value and share
// (0 to 1) fields; a point's time is its window's start.
func (d *Datasource) queryCallSiteSeries(ctx context.Context, r *request) (data.Frames, error) {
	if len(r.CallSite) == 0 {
		return nil, userErrorf("a callSiteSeries query needs a callSite: the frame names of a call path from the root")
	}
	var windows []time.Time
	for from := r.Range.From; from.Before(r.Range.To); from = from.Add(r.Step) {
		windows = append(windows, from)
	}
	if len(windows) > maxCallSiteSteps {
		return nil, userErrorf("callSiteSeries: %d steps of %s, more than the %d merges a call path series may ask for; widen the step or shorten the range", len(windows), r.Step, maxCallSiteSteps)
	}
	values := make([]float64, len(windows))
	shares := make([]float64, len(windows))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(callSiteSeriesConcurrency)
	for i, from := range windows {
		g.Go(func() error {
			sel := r.selection()
			// Ranges are closed: a window ends a millisecond before the next.
			sel.Range.From, sel.Range.To = from, from.Add(r.Step-time.Millisecond)
			if sel.Range.To.After(r.Range.To) {
				sel.Range.To = r.Range.To
			}
			t, cs, err := d.fullTreeAt(gctx, r, sel)
			if err != nil {
				return err
			}
			values[i] = float64(t.Total())
			if cs != nil && cs.WholeTotal > 0 {
				shares[i] = values[i] / float64(cs.WholeTotal)
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	name := strings.Join(r.CallSite, " > ")
	value := data.NewField("value", data.Labels{"call_site": name}, values)
	value.SetConfig(&data.FieldConfig{Unit: dataframes.UnitOfProfileType(r.Query.ProfileTypeID), DisplayNameFromDS: name})
	share := data.NewField("share", data.Labels{"call_site": name}, shares)
	share.SetConfig(&data.FieldConfig{Unit: "percentunit", DisplayNameFromDS: name + " (share)"})
	f := data.NewFrame(name, data.NewField("time", nil, windows), value, share)
	f.Meta = &data.FrameMeta{Type: data.FrameTypeTimeSeriesMulti, PreferredVisualization: data.VisTypeGraph}
	return data.Frames{f}, nil
}
