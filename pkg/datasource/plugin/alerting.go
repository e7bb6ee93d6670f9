// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/grafana/dataplane/sdata/timeseries"
	"github.com/grafana/grafana-plugin-sdk-go/backend"
	"github.com/grafana/grafana-plugin-sdk-go/data"
)

// alertQueryTypes are the query types an alert rule may use: those that
// answer numbers over time.
var alertQueryTypes = []string{QueryTypeMetrics, QueryTypeCallSiteSeries, QueryTypeFunctionShare, QueryTypeNovelty}

// ruleHeaders are headers Grafana's alert engine adds to its queries, naming
// the rule; any of them, bare or with the SDK's "http_" prefix, marks a
// request as the alert engine's, as does FromAlert.
var ruleHeaders = []string{"X-Rule-Uid", "X-Rule-Name", "X-Rule-Folder", "X-Rule-Source", "X-Rule-Type", "X-Rule-Version"}

// fromAlert reports whether Grafana's alert engine sent the request: it sets
// the FromAlert header (backend.FromAlertHeaderName) and the rule's X-Rule-*
// headers; no frontend code runs for it, so the frames must be numbers alone.
func fromAlert(req *backend.QueryDataRequest) bool {
	if req == nil {
		return false
	}
	if v := req.Headers[backend.FromAlertHeaderName]; v != "" && v != "false" {
		return true
	}
	if v := req.GetHTTPHeader(backend.FromAlertHeaderName); v != "" && v != "false" {
		return true
	}
	for _, h := range ruleHeaders {
		if req.Headers[h] != "" || req.GetHTTPHeader(h) != "" {
			return true
		}
	}
	return false
}

// alertQueryData answers the alert engine: each query of an alertable type
// is run as usual, then its time series are remade into the data plane's
// "timeseries-multi" frames (one frame per series: a time field and one
// number field carrying the labels) and checked against the contract; the
// step windows, shares beside values, exemplars and annotation frames are
// left out. Other query types, and live queries, are refused by refId.
func (d *Datasource) alertQueryData(ctx context.Context, req *backend.QueryDataRequest) *backend.QueryDataResponse {
	funcs := d.queryFuncs()
	resp := backend.NewQueryDataResponse()
	for _, q := range req.Queries {
		if !isAlertQueryType(q.QueryType) {
			resp.Responses[q.RefID] = errorResponse(userErrorf(
				"query type %q cannot be used in an alert rule: use one of %s", displayType(q.QueryType), strings.Join(alertQueryTypes, ", ")))
			continue
		}
		r, parsed := d.runOne(ctx, q.QueryType, q, funcs[q.QueryType])
		if r.Error != nil {
			resp.Responses[q.RefID] = r
			continue
		}
		if parsed != nil && parsed.Live != nil {
			resp.Responses[q.RefID] = errorResponse(userErrorf("live: a live query cannot be used in an alert rule: the alert engine runs the query itself, at the rule's interval"))
			continue
		}
		frames, err := alertFrames(q.RefID, r.Frames)
		if err != nil {
			d.logger.Error("alert frames break the data plane contract", "refId", q.RefID, "queryType", q.QueryType, "error", err)
			resp.Responses[q.RefID] = backend.ErrorResponseWithErrorSource(err)
			continue
		}
		resp.Responses[q.RefID] = backend.DataResponse{Frames: frames}
	}
	return resp
}

func isAlertQueryType(t string) bool {
	for _, a := range alertQueryTypes {
		if t == a {
			return true
		}
	}
	return false
}

// displayType names a query type in a refusal; a query without one is
// answered as "both".
func displayType(t string) string {
	if t == "" {
		return QueryTypeBoth
	}
	return t
}

// alertFrames remakes the "timeseries-multi" frames of a query into a
// dataplane MultiFrame: per frame, its time field and its first number
// field (with the field's labels and unit); frames of other types
// (annotations, exemplars) are dropped, and so are the notices but the
// first frame's. The result passes the library's contract check, data
// included (sorted times, no duplicate series), or is an error.
func alertFrames(refID string, frames data.Frames) (data.Frames, error) {
	mf, err := timeseries.NewMultiFrame(refID, timeseries.MultiFrameVersionLatest)
	if err != nil {
		return nil, err
	}
	var notices []data.Notice
	for _, f := range frames {
		if f.Meta == nil || f.Meta.Type != data.FrameTypeTimeSeriesMulti {
			continue
		}
		if notices == nil {
			notices = f.Meta.Notices
		}
		timeIdx := f.TypeIndices(data.FieldTypeTime)
		valueIdx := f.TypeIndices(data.FieldTypeFloat64, data.FieldTypeNullableFloat64, data.FieldTypeInt64, data.FieldTypeNullableInt64)
		if len(timeIdx) == 0 || len(valueIdx) == 0 {
			return nil, fmt.Errorf("alerting: frame %q has no time or no number field", f.Name)
		}
		t, v := f.Fields[timeIdx[0]], f.Fields[valueIdx[0]]
		times, values, err := seriesValues(t, v)
		if err != nil {
			return nil, fmt.Errorf("alerting: frame %q: %w", f.Name, err)
		}
		if err := mf.AddSeries(v.Name, v.Labels, times, values); err != nil {
			return nil, fmt.Errorf("alerting: series %q %v: %w", v.Name, v.Labels, err)
		}
		added := (*mf)[len(*mf)-1]
		added.Name = f.Name
		if v.Config != nil {
			added.Fields[1].Config = &data.FieldConfig{Unit: v.Config.Unit, DisplayNameFromDS: v.Config.DisplayNameFromDS}
		}
	}
	if len(notices) > 0 {
		(*mf)[0].Meta.Notices = notices
	}
	if _, err := mf.GetCollection(true); err != nil {
		return nil, fmt.Errorf("alerting: %w", err)
	}
	return data.Frames(*mf), nil
}

// seriesValues copies a time field and a number field out of a frame, the
// numbers as float64, or *float64 when the field has nulls.
func seriesValues(t, v *data.Field) ([]time.Time, any, error) {
	times := make([]time.Time, t.Len())
	for i := range times {
		ts, ok := t.ConcreteAt(i)
		if !ok {
			return nil, nil, fmt.Errorf("time %d is null", i)
		}
		times[i] = ts.(time.Time)
	}
	if v.Nullable() {
		values := make([]*float64, v.Len())
		for i := range values {
			x, err := v.NullableFloatAt(i)
			if err != nil {
				return nil, nil, err
			}
			values[i] = x
		}
		return times, values, nil
	}
	values := make([]float64, v.Len())
	for i := range values {
		x, err := v.FloatAt(i)
		if err != nil {
			return nil, nil, err
		}
		values[i] = x
	}
	return times, values, nil
}
