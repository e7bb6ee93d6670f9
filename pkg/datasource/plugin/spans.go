// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"context"
	"strings"

	"github.com/grafana/grafana-plugin-sdk-go/backend"
	"github.com/grafana/grafana-plugin-sdk-go/data"

	"github.com/emberscope/emberscope/pkg/datasource/dataframes"
	"github.com/emberscope/emberscope/pkg/datasource/source"
)

// Heatmap types of a histogram query's heatmapType, as Grafana's Pyroscope
// datasource names them.
const (
	HeatmapIndividual = "individual"
	HeatmapSpan       = "span"
)

// spanOptions are the query's trace fields, as Grafana's built-in Pyroscope
// datasource sends them: spanSelector (the flamegraph of those spans'
// samples), profileIdSelector (the flamegraph of those profiles alone),
// includeExemplars (the profiles behind each point of a series or heatmap)
// and heatmapType (a histogram of single spans instead of profiles).
type spanOptions struct {
	SpanIDs    []string
	ProfileIDs []string
	Exemplars  bool
	// Spans makes a histogram count spans (heatmapType "span").
	Spans bool
}

// parseSpanOptions reads and checks the trace fields; an empty entry, a span
// id that is not 16 hexadecimal digits or an unknown heatmap type is the
// user's error, named by field and position.
func parseSpanOptions(m *queryModel) (spanOptions, error) {
	out := spanOptions{Exemplars: m.IncludeExemplars}
	for i, id := range m.SpanSelector {
		id = strings.TrimSpace(id)
		if !isHex(id, 16) {
			return out, userErrorf("spanSelector[%d]: %q is not a span id: a span id is 16 hexadecimal digits, like 122b3e7d77a267a7", i, m.SpanSelector[i])
		}
		out.SpanIDs = append(out.SpanIDs, strings.ToLower(id))
	}
	for i, id := range m.ProfileIDSelector {
		id = strings.TrimSpace(id)
		if id == "" {
			return out, userErrorf("profileIdSelector[%d] is empty: give the id of a profile, as its exemplar shows it", i)
		}
		out.ProfileIDs = append(out.ProfileIDs, id)
	}
	switch strings.TrimSpace(m.HeatmapType) {
	case "", HeatmapIndividual:
	case HeatmapSpan:
		out.Spans = true
	default:
		return out, userErrorf("heatmapType: %q is not one of %s, %s", m.HeatmapType, HeatmapIndividual, HeatmapSpan)
	}
	return out, nil
}

func isHex(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// exemplarLinks is what the exemplar frames of r link to: this datasource
// (the uid and name of the request's plugin context, else the instance's)
// and the settings' tracing datasource.
func (d *Datasource) exemplarLinks(ctx context.Context, r *request) dataframes.ExemplarLinks {
	l := dataframes.ExemplarLinks{
		DatasourceUID:  d.uid,
		DatasourceName: d.name,
		ProfileTypeID:  r.Query.ProfileTypeID,
		LabelSelector:  r.Query.Selector,
	}
	if s := backend.PluginConfigFromContext(ctx).DataSourceInstanceSettings; s != nil && s.UID != "" {
		l.DatasourceUID, l.DatasourceName = s.UID, s.Name
	}
	if d.settings != nil {
		l.TracingDatasourceUID = d.settings.TracingDatasourceUID
	}
	return l
}

// seriesExemplars returns one exemplar frame per series that has exemplars.
func (d *Datasource) seriesExemplars(ctx context.Context, r *request, series []source.Series) data.Frames {
	links := d.exemplarLinks(ctx, r)
	unit := dataframes.UnitOfProfileType(r.Query.ProfileTypeID)
	var out data.Frames
	for _, s := range series {
		var exs []source.Exemplar
		for _, p := range s.Points {
			exs = append(exs, p.Exemplars...)
		}
		if f := dataframes.Exemplars(s.Labels, exs, false, unit, links); f != nil {
			out = append(out, f)
		}
	}
	return out
}

// heatmapExemplars returns the exemplar frame of a heatmap's slots, nil for none.
func (d *Datasource) heatmapExemplars(ctx context.Context, r *request, slots []source.HeatmapSlot) *data.Frame {
	var exs []source.Exemplar
	for _, s := range slots {
		exs = append(exs, s.Exemplars...)
	}
	return dataframes.Exemplars(nil, exs, r.Spans.Spans, dataframes.UnitOfProfileType(r.Query.ProfileTypeID), d.exemplarLinks(ctx, r))
}
