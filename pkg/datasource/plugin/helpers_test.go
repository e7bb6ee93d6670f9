// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/grafana/grafana-plugin-sdk-go/backend"
	"github.com/grafana/grafana-plugin-sdk-go/data"
	"github.com/stretchr/testify/require"
)

// newDS builds the datasource the way Grafana does, from instance settings.
func newDS(t *testing.T, url string) *Datasource {
	t.Helper()
	inst, err := NewDatasource(context.Background(), backend.DataSourceInstanceSettings{
		UID: "emberscope", Type: PluginID, URL: url, JSONData: json.RawMessage(`{"minStep":"15s"}`),
	})
	require.NoError(t, err)
	return inst.(*Datasource)
}

// testRange is the range every store-backed query uses: the last hour.
func testRange() backend.TimeRange {
	now := time.Now()
	return backend.TimeRange{From: now.Add(-time.Hour), To: now.Add(time.Minute)}
}

// q is one query of a request.
func q(refID, queryType, js string) backend.DataQuery {
	return backend.DataQuery{RefID: refID, QueryType: queryType, JSON: json.RawMessage(js), TimeRange: testRange(), MaxDataPoints: 100, Interval: time.Second}
}

func run(t *testing.T, d *Datasource, qs ...backend.DataQuery) *backend.QueryDataResponse {
	t.Helper()
	resp, err := d.QueryData(context.Background(), &backend.QueryDataRequest{Queries: qs})
	require.NoError(t, err)
	return resp
}

// ok returns the frames of a query that must have succeeded.
func ok(t *testing.T, resp *backend.QueryDataResponse, refID string) data.Frames {
	t.Helper()
	r, found := resp.Responses[refID]
	require.True(t, found, "no response for %s", refID)
	require.NoError(t, r.Error, "query %s", refID)
	return r.Frames
}

// flameRow is one row of a flamegraph frame.
type flameRow struct {
	Level, Value, Self int64
	Label              string
	Virtual            bool
}

// flameRows reads a flamegraph frame back into rows.
func flameRows(t *testing.T, f *data.Frame) []flameRow {
	t.Helper()
	field := func(name string) *data.Field {
		fl, idx := f.FieldByName(name)
		require.GreaterOrEqual(t, idx, 0, "flamegraph frame without field %q", name)
		return fl
	}
	level, value, self, label := field("level"), field("value"), field("self"), field("label")
	virtual, vi := f.FieldByName("virtual")
	var text []string
	if label.Config != nil && label.Config.TypeConfig != nil && label.Config.TypeConfig.Enum != nil {
		text = label.Config.TypeConfig.Enum.Text
	}
	rows := make([]flameRow, f.Rows())
	for i := range rows {
		rows[i] = flameRow{Level: level.At(i).(int64), Value: value.At(i).(int64), Self: self.At(i).(int64)}
		switch v := label.At(i).(type) {
		case data.EnumItemIndex:
			rows[i].Label = text[v]
		case string:
			rows[i].Label = v
		}
		if vi >= 0 {
			rows[i].Virtual = virtual.At(i).(bool)
		}
	}
	return rows
}

// selfByName sums the self column per label.
func selfByName(rows []flameRow) map[string]int64 {
	out := map[string]int64{}
	for _, r := range rows {
		out[r.Label] += r.Self
	}
	return out
}

// frameOf returns the first frame whose preferred visualisation is v, or nil.
func frameOf(frames data.Frames, v data.VisType) *data.Frame {
	for _, f := range frames {
		if f.Meta != nil && f.Meta.PreferredVisualization == v {
			return f
		}
	}
	return nil
}

// seriesSum sums every value of every time series frame.
func seriesSum(t *testing.T, frames data.Frames) (sum float64, n int, perLabel map[string]float64) {
	t.Helper()
	perLabel = map[string]float64{}
	for _, f := range frames {
		if f.Meta != nil && f.Meta.PreferredVisualization == data.VisTypeFlameGraph {
			continue
		}
		require.Len(t, f.Fields, 4, "a series frame has time, value and its points' step windows")
		v := f.Fields[1]
		n++
		key := ""
		for _, l := range v.Labels {
			key += l
		}
		for i := 0; i < v.Len(); i++ {
			x := v.At(i).(float64)
			sum += x
			perLabel[key] += x
		}
	}
	return sum, n, perLabel
}
