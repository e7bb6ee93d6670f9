// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package dataframes

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/grafana/grafana-plugin-sdk-go/data"

	"github.com/emberscope/emberscope/pkg/datasource/source"
	"github.com/emberscope/emberscope/pkg/profile/model"
)

// Series returns one frame per series (the dataplane "timeseries-multi"
// shape): a "time" field and a float64 value field named after the profile
// type, whose Labels carry the series labels and whose display name is the
// label set, {a="x", b="y"} sorted by label name, or, when the series has no
// labels, the profile type's sample type ("cpu"), as Grafana's Pyroscope
// datasource names its series (a value field named after the sample type,
// seriesToDataFrames); the profile type ID when it does not parse. unit is the profile type's sample unit (see
// UnitFor). Points are written in the order given.
func Series(series []source.Series, profileTypeID, unit string) []*data.Frame {
	out := make([]*data.Frame, 0, len(series))
	for _, s := range series {
		times := make([]time.Time, len(s.Points))
		values := make([]float64, len(s.Points))
		for i, p := range s.Points {
			times[i] = p.Time.UTC()
			values[i] = p.Value
		}
		var labels data.Labels
		if len(s.Labels) > 0 {
			labels = make(data.Labels, len(s.Labels))
			for _, l := range s.Labels {
				labels[l.Name] = l.Value
			}
		}
		value := withUnit(data.NewField(profileTypeID, labels, values), unit)
		if value.Config == nil {
			value.Config = &data.FieldConfig{}
		}
		value.Config.DisplayNameFromDS = displayName(s.Labels, sampleTypeOf(profileTypeID))
		f := data.NewFrame(profileTypeID, data.NewField("time", nil, times), value)
		f.Meta = &data.FrameMeta{
			Type:                   data.FrameTypeTimeSeriesMulti,
			TypeVersion:            data.FrameTypeVersion{0, 1},
			PreferredVisualization: data.VisTypeGraph,
		}
		out = append(out, f)
	}
	return out
}

// sampleTypeOf is the sample type of a profile type ID, or the ID when it
// does not parse.
func sampleTypeOf(profileTypeID string) string {
	if t, err := model.ParseProfileType(profileTypeID); err == nil {
		return t.SampleType
	}
	return profileTypeID
}

// displayName renders labels as {a="x", b="y"} sorted by name, or fallback
// when there are none.
func displayName(labels model.Labels, fallback string) string {
	if len(labels) == 0 {
		return fallback
	}
	sorted := slices.Clone(labels)
	sorted.Sort()
	var b strings.Builder
	b.WriteByte('{')
	for i, l := range sorted {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(l.Name)
		b.WriteByte('=')
		b.WriteString(strconv.Quote(l.Value))
	}
	b.WriteByte('}')
	return b.String()
}
