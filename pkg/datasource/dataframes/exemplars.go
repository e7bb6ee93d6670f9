// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package dataframes

import (
	"slices"
	"strings"
	"time"

	"github.com/grafana/grafana-plugin-sdk-go/data"

	"github.com/emberscope/emberscope/pkg/datasource/source"
	"github.com/emberscope/emberscope/pkg/profile/model"
)

// ExemplarFrameName is the name Grafana's time series panel reads exemplars
// from (with meta.dataTopic "annotations").
const ExemplarFrameName = "exemplar"

// ExemplarLinks is what an exemplar frame needs to link each exemplar to its
// flamegraph (in the datasource that answered) and its trace (in the
// tracing datasource of the settings, when one is chosen).
type ExemplarLinks struct {
	DatasourceUID  string
	DatasourceName string
	ProfileTypeID  string
	// LabelSelector is the query's selector, kept in the profile's query.
	LabelSelector string
	// TracingDatasourceUID is the datasource a trace id links to; "" for
	// no trace links.
	TracingDatasourceUID string
}

// Exemplars returns the exemplars of one series (or one heatmap) as Grafana's
// Pyroscope datasource returns them, so that Explore and dashboards draw them
// on the series: a frame named "exemplar" with meta.dataTopic "annotations"
// and the fields
//
//	Time     time     when the profile was taken
//	Value    float64  its value, carrying the series labels and the unit
//	Id       string   the profile id ("Profile ID"), or for span exemplars
//	                  the span id ("Span ID")
//	traceId  string   span exemplars only: the trace of the span
//	<label>  string   one field per label of the exemplars and the series
//	                  (names starting with "__" left out), sorted by name
//
// The Id field links each exemplar to its own flamegraph: a profile query
// with profileIdSelector [id], or with spanSelector [id] for a span. The
// traceId field links to the trace in the tracing datasource when there is
// one. No exemplars give nil.
func Exemplars(series model.Labels, exs []source.Exemplar, spans bool, unit string, links ExemplarLinks) *data.Frame {
	if len(exs) == 0 {
		return nil
	}
	names := map[string]bool{}
	seriesValue := map[string]string{}
	var fieldLabels data.Labels
	for _, l := range series {
		names[l.Name] = true
		seriesValue[l.Name] = l.Value
		if fieldLabels == nil {
			fieldLabels = data.Labels{}
		}
		fieldLabels[l.Name] = l.Value
	}
	for _, e := range exs {
		for _, l := range e.Labels {
			if !strings.HasPrefix(l.Name, "__") {
				names[l.Name] = true
			}
		}
	}
	sorted := make([]string, 0, len(names))
	for n := range names {
		sorted = append(sorted, n)
	}
	slices.Sort(sorted)

	n := len(exs)
	times := make([]time.Time, n)
	values := make([]float64, n)
	ids := make([]string, n)
	traces := make([]string, n)
	cols := make([][]string, len(sorted))
	for i := range cols {
		cols[i] = make([]string, n)
	}
	for i, e := range exs {
		times[i] = e.Time.UTC()
		values[i] = e.Value
		ids[i] = e.ProfileID
		if spans {
			ids[i] = e.SpanID
		}
		traces[i] = e.TraceID
		for j, name := range sorted {
			if v, ok := labelValue(e.Labels, name); ok {
				cols[j][i] = v
			} else {
				cols[j][i] = seriesValue[name]
			}
		}
	}
	value := data.NewField("Value", fieldLabels, values)
	value.Config = &data.FieldConfig{DisplayName: "Value", Unit: unit}
	id := data.NewField("Id", nil, ids)
	id.Config = &data.FieldConfig{DisplayName: "Profile ID"}
	if spans {
		id.Config.DisplayName = "Span ID"
	}
	if links.DatasourceUID != "" {
		id.Config.Links = []data.DataLink{flamegraphLink(links, spans)}
	}
	fields := []*data.Field{data.NewField("Time", nil, times), value, id}
	if spans {
		trace := data.NewField("traceId", nil, traces)
		trace.Config = &data.FieldConfig{DisplayName: "Trace ID"}
		if links.TracingDatasourceUID != "" {
			trace.Config.Links = []data.DataLink{traceLink(links.TracingDatasourceUID)}
		}
		fields = append(fields, trace)
	}
	for j, name := range sorted {
		fields = append(fields, data.NewField(name, nil, cols[j]))
	}
	f := data.NewFrame(ExemplarFrameName, fields...)
	f.Meta = &data.FrameMeta{DataTopic: data.DataTopicAnnotations}
	return f
}

func labelValue(ls model.Labels, name string) (string, bool) {
	for _, l := range ls {
		if l.Name == name {
			return l.Value, true
		}
	}
	return "", false
}

// flamegraphLink opens the flamegraph of the clicked exemplar alone: the
// profile with that id, or the samples of that span.
func flamegraphLink(l ExemplarLinks, spans bool) data.DataLink {
	q := map[string]any{
		"queryType":     "profile",
		"profileTypeId": l.ProfileTypeID,
		"labelSelector": l.LabelSelector,
		"groupBy":       []string{},
	}
	title := "View profile"
	if spans {
		q["spanSelector"] = []string{"${__value.raw}"}
		title = "View span profile"
	} else {
		q["profileIdSelector"] = []string{"${__value.raw}"}
	}
	return data.DataLink{
		Title: title,
		Internal: &data.InternalDataLink{
			DatasourceUID:  l.DatasourceUID,
			DatasourceName: l.DatasourceName,
			Query:          q,
		},
	}
}

// traceLink opens the trace of the clicked exemplar in the tracing
// datasource: its query is the trace id (Tempo reads it as a TraceQL
// trace-id query, Jaeger and Zipkin as a trace id).
func traceLink(uid string) data.DataLink {
	return data.DataLink{
		Title: "View trace",
		Internal: &data.InternalDataLink{
			DatasourceUID: uid,
			Query: map[string]any{
				"queryType": "traceql",
				"query":     "${__value.raw}",
			},
		},
	}
}
