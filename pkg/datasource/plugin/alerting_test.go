// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/grafana/dataplane/sdata/timeseries"
	"github.com/grafana/grafana-plugin-sdk-go/backend"
	"github.com/grafana/grafana-plugin-sdk-go/data"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/pkg/datasource/plugin/plugintest"
)

// alertStore is a store of its own holding CPUFile once, as service
// "alerts", so that no other test's pushes change the totals.
var (
	alertStoreOnce sync.Once
	alertStoreURL  string
)

func alertStore(t *testing.T) string {
	t.Helper()
	alertStoreOnce.Do(func() {
		url := plugintest.Store(&keepAlive{T: t})
		plugintest.Ingest(t, url, "alerts{env=test}", plugintest.CPUProfile(t))
		alertStoreURL = url
	})
	if alertStoreURL == "" {
		t.Fatal("alert store failed in an earlier test")
	}
	return alertStoreURL
}

// alertRequest is a request as Grafana's alert engine sends it: the
// FromAlert and X-Rule-* headers, the rule's relative range ending now, the
// query JSON with the datasource, intervalMs and maxDataPoints the engine
// writes, and Interval and MaxDataPoints set from them.
func alertRequest(queryType string, model map[string]any) *backend.QueryDataRequest {
	model["refId"] = "A"
	model["queryType"] = queryType
	model["datasource"] = map[string]string{"type": PluginID, "uid": "emberscope"}
	model["intervalMs"] = 1000
	model["maxDataPoints"] = 43200
	js, _ := json.Marshal(model)
	now := time.Now()
	return &backend.QueryDataRequest{
		Headers: map[string]string{
			"FromAlert":     "true",
			"X-Cache-Skip":  "true",
			"X-Rule-Name":   "checkout JSON share",
			"X-Rule-Uid":    "emberscope-json-share",
			"X-Rule-Folder": "Profiles",
			"X-Rule-Source": "ngalert",
			"X-Rule-Type":   "alerting",
		},
		Queries: []backend.DataQuery{{
			RefID: "A", QueryType: queryType, JSON: js,
			TimeRange:     backend.TimeRange{From: now.Add(-10 * time.Minute), To: now.Add(time.Minute)},
			Interval:      time.Second,
			MaxDataPoints: 43200,
		}},
	}
}

// contractFrames runs an alert request and checks its frames with the
// dataplane library: a valid timeseries-multi collection, data included,
// with no field left over (each frame one time and one number field) and
// meta.type and typeVersion set on every frame. It returns the series.
func contractFrames(t *testing.T, d *Datasource, req *backend.QueryDataRequest) (data.Frames, []timeseries.MetricRef) {
	t.Helper()
	resp, err := d.QueryData(context.Background(), req)
	require.NoError(t, err)
	frames := ok(t, resp, "A")
	require.NotEmpty(t, frames)
	mf := timeseries.MultiFrame(frames)
	c, err := mf.GetCollection(true)
	require.NoError(t, err, "the frames follow the timeseries-multi contract")
	require.Empty(t, c.RemainderIndices, "no field or frame beside the series")
	require.Nil(t, c.Warning, "the latest contract version")
	for _, f := range frames {
		require.Equal(t, data.FrameTypeTimeSeriesMulti, f.Meta.Type)
		require.Equal(t, timeseries.MultiFrameVersionLatest, f.Meta.TypeVersion)
		require.Len(t, f.Fields, 2)
		require.Equal(t, "A", f.RefID)
	}
	return frames, c.Refs
}

// sumOf is the sum of a series' values and how many points it has.
func sumOf(t *testing.T, ref timeseries.MetricRef) (float64, int) {
	t.Helper()
	n, err := ref.Len()
	require.NoError(t, err)
	sum := 0.0
	for i := range n {
		v, err := ref.NullableFloat64Value(i)
		require.NoError(t, err)
		require.NotNil(t, v)
		sum += *v
	}
	return sum, n
}

// onlyPoint is the value of a series that must have exactly one point.
func onlyPoint(t *testing.T, ref timeseries.MetricRef) float64 {
	t.Helper()
	sum, n := sumOf(t, ref)
	require.Equal(t, 1, n, "one pushed profile, one step with samples")
	return sum
}

func TestAlertMetricsFollowDataplaneContract(t *testing.T) {
	d := newDS(t, alertStore(t))
	total := plugintest.Pprof(t, plugintest.CPUFile, "cpu").Total
	byRoute := plugintest.CPUByRoute(t)
	_, refs := contractFrames(t, d, alertRequest("metrics", map[string]any{
		"profileTypeId": cpuType, "labelSelector": `{service_name="alerts"}`, "groupBy": []string{"route"}, "includeExemplars": true,
	}))
	require.Len(t, refs, len(byRoute), "one series per route, exemplars left out")
	all := 0.0
	for _, ref := range refs {
		sum, _ := sumOf(t, ref)
		require.Equal(t, float64(byRoute[ref.GetLabels()["route"]]), sum, "route %q: pprof's total", ref.GetLabels()["route"])
		all += sum
	}
	require.Equal(t, float64(total), all, "the routes sum to pprof's total")
}

func TestAlertCallSiteSeriesIsTheCallPathValue(t *testing.T) {
	d := newDS(t, alertStore(t))
	cum := plugintest.Pprof(t, plugintest.CPUFile, "cpu").Cum()[plugintest.FuncName("burnCheckout")]
	require.Positive(t, cum)
	path := []string{"runtime.main", "main.main", "main.record", "runtime/pprof.Do", "main.record.func1", "main.burnCheckout"}
	frames, refs := contractFrames(t, d, alertRequest("callSiteSeries", map[string]any{
		"profileTypeId": cpuType, "labelSelector": `{service_name="alerts"}`, "callSite": path,
	}))
	require.Len(t, refs, 1, "the value alone, the share left out")
	require.Equal(t, "value", frames[0].Fields[1].Name)
	sum, _ := sumOf(t, refs[0])
	require.Equal(t, float64(cum), sum, "the call path's value is burnCheckout's cum in pprof")
}

func TestAlertFunctionShareIsPprofCumOverTotal(t *testing.T) {
	d := newDS(t, alertStore(t))
	report := plugintest.Pprof(t, plugintest.CPUFile, "cpu")
	cum := report.Cum()
	for _, tc := range []struct {
		name  string
		model map[string]any
		want  float64
	}{
		{"exact name", map[string]any{"function": "encoding/json.Marshal"}, float64(cum["encoding/json.Marshal"]) / float64(report.Total)},
		{"regex", map[string]any{"functionRegex": `main\.burn(Checkout|Search)`},
			float64(cum[plugintest.FuncName("burnCheckout")]+cum[plugintest.FuncName("burnSearch")]) / float64(report.Total)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.Positive(t, tc.want)
			tc.model["profileTypeId"] = cpuType
			tc.model["labelSelector"] = `{service_name="alerts"}`
			frames, refs := contractFrames(t, d, alertRequest("functionShare", tc.model))
			require.Len(t, refs, 1)
			require.InDelta(t, tc.want, onlyPoint(t, refs[0]), 1e-12, "pprof's cum over its total")
			require.Equal(t, "percentunit", frames[0].Fields[1].Config.Unit)
		})
	}
}

func TestAlertFunctionShareByRoute(t *testing.T) {
	d := newDS(t, alertStore(t))
	_, refs := contractFrames(t, d, alertRequest("functionShare", map[string]any{
		"profileTypeId": cpuType, "labelSelector": `{service_name="alerts"}`, "groupBy": []string{"route"},
		"function": "encoding/json.Marshal",
	}))
	require.Len(t, refs, len(plugintest.CPUByRoute(t)))
	for _, ref := range refs {
		route := ref.GetLabels()["route"]
		r := plugintest.Pprof(t, plugintest.CPUFile, "cpu", "route", route)
		want := float64(r.Cum()["encoding/json.Marshal"]) / float64(r.Total)
		require.InDelta(t, want, onlyPoint(t, ref), 1e-12, "route %q", route)
		require.Equal(t, "encoding/json.Marshal", ref.GetLabels()["function"])
	}
}

func TestAlertNoveltyScoresWithoutAnnotations(t *testing.T) {
	d := newDS(t, alertStore(t))
	frames, refs := contractFrames(t, d, alertRequest("novelty", map[string]any{
		"profileTypeId": cpuType, "labelSelector": `{service_name="alerts"}`, "groupBy": []string{"route"},
	}))
	require.Len(t, refs, len(plugintest.CPUByRoute(t)), "a score series per route, the annotations frame left out")
	for _, f := range frames {
		require.Equal(t, "score", f.Fields[1].Name)
		require.Equal(t, 1, f.Rows(), "one pushed profile, one score")
	}
}

func TestAlertRefusesQueriesThatAreNotNumbers(t *testing.T) {
	d := newDS(t, alertStore(t))
	for _, kind := range []string{"profile", "topTable", ""} {
		resp, err := d.QueryData(context.Background(), alertRequest(kind, map[string]any{"profileTypeId": cpuType}))
		require.NoError(t, err)
		require.ErrorContains(t, resp.Responses["A"].Error, "cannot be used in an alert rule: use one of metrics, callSiteSeries, functionShare, novelty")
		require.Equal(t, backend.ErrorSourceDownstream, resp.Responses["A"].ErrorSource, "the rule is wrong, not the plugin")
	}
}

func TestFromAlertReadsTheEngineHeaders(t *testing.T) {
	for _, tc := range []struct {
		headers map[string]string
		want    bool
	}{
		{map[string]string{"FromAlert": "true"}, true},
		{map[string]string{"http_FromAlert": "true"}, true},
		{map[string]string{"http_X-Rule-Uid": "abc"}, true},
		{map[string]string{"X-Rule-Name": "r"}, true},
		{map[string]string{"FromAlert": "false"}, false},
		{map[string]string{"X-Grafana-Org-Id": "1"}, false},
		{nil, false},
	} {
		require.Equal(t, tc.want, fromAlert(&backend.QueryDataRequest{Headers: tc.headers}), "%v", tc.headers)
	}
}

func TestFunctionShareRefusesBadInput(t *testing.T) {
	d := newDS(t, alertStore(t))
	for _, tc := range []struct{ js, want string }{
		{`{}`, "set function (a function's exact name) or functionRegex"},
		{`{"function":"a","functionRegex":"b"}`, "set function or functionRegex, not both"},
		{`{"functionRegex":"main.(burn"}`, `functionRegex: "main.(burn" is not a valid regular expression`},
	} {
		var m map[string]any
		require.NoError(t, json.Unmarshal([]byte(tc.js), &m))
		m["profileTypeId"] = cpuType
		m["labelSelector"] = `{service_name="alerts"}`
		js, _ := json.Marshal(m)
		resp := run(t, d, q("F", "functionShare", string(js)))
		require.ErrorContains(t, resp.Responses["F"].Error, tc.want)
	}
}
