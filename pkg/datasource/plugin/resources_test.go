// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"testing"
	"time"

	"github.com/google/pprof/profile"
	"github.com/grafana/grafana-plugin-sdk-go/backend"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/internal/pproforacle"
	"github.com/emberscope/emberscope/pkg/datasource/plugin/plugintest"
)

// callResource calls a resource route as Grafana does and returns status and body.
func callResource(t *testing.T, d *Datasource, method, path string, params url.Values) (int, http.Header, []byte) {
	t.Helper()
	u := path
	if len(params) > 0 {
		u += "?" + params.Encode()
	}
	var got *backend.CallResourceResponse
	err := d.CallResource(context.Background(), &backend.CallResourceRequest{Path: path, Method: method, URL: u},
		backend.CallResourceResponseSenderFunc(func(r *backend.CallResourceResponse) error {
			if got == nil {
				got = r
			} else {
				got.Body = append(got.Body, r.Body...)
			}
			return nil
		}))
	require.NoError(t, err)
	require.NotNil(t, got)
	return got.Status, http.Header(got.Headers), got.Body
}

func TestResourceRoutes(t *testing.T) {
	fx := storeFixture(t)
	d := newDS(t, fx.url)
	now := time.Now()
	rng := url.Values{"start": {strconv.FormatInt(now.Add(-time.Hour).UnixMilli(), 10)}, "end": {strconv.FormatInt(now.Add(time.Minute).UnixMilli(), 10)}}

	code, _, body := callResource(t, d, "GET", "profileTypes", rng)
	require.Equal(t, 200, code, string(body))
	var types []profileTypeJSON
	require.NoError(t, json.Unmarshal(body, &types))
	require.Contains(t, types, profileTypeJSON{ID: cpuType, Label: "process_cpu - cpu", Name: "process_cpu", SampleType: "cpu", SampleUnit: "nanoseconds", PeriodType: "cpu", PeriodUnit: "nanoseconds"})

	p := url.Values{"label": {"route"}, "matchers": {`{service_name="shop"}`}, "profileTypeId": {cpuType}}
	code, _, body = callResource(t, d, "GET", "labelValues", p)
	require.Equal(t, 200, code, string(body))
	require.JSONEq(t, `["/checkout","/search"]`, string(body))

	code, _, body = callResource(t, d, "GET", "labelNames", url.Values{"matchers": {`{__profile_type__="` + cpuType + `"}`}})
	require.Equal(t, 200, code, string(body))
	var names []string
	require.NoError(t, json.Unmarshal(body, &names))
	require.Subset(t, names, []string{"env", "route", "service_name"})

	code, _, body = callResource(t, d, "GET", "labelNames", url.Values{"start": {"soon"}})
	require.Equal(t, 400, code)
	require.JSONEq(t, `{"error":"start: \"soon\" is not a time in epoch milliseconds"}`, string(body))

	code, _, _ = callResource(t, d, "DELETE", "labelNames", nil)
	require.Equal(t, 405, code)
}

func TestExportPprof(t *testing.T) {
	fx := storeFixture(t)
	d := newDS(t, fx.url)
	byRoute := plugintest.CPUByRoute(t)
	code, h, body := callResource(t, d, "GET", "export", url.Values{
		"format": {"pprof"}, "profileTypeId": {cpuType}, "labelSelector": {`{route="/checkout"}`},
	})
	require.Equal(t, 200, code, string(body))
	require.Equal(t, `attachment; filename="process_cpu_cpu_nanoseconds_cpu_nanoseconds.pb.gz"`, h.Get("Content-Disposition"))
	p, err := profile.ParseData(body)
	require.NoError(t, err, "the export is a pprof file")
	// The oracle is google/pprof, on the export and on the recorded file.
	require.NotEmpty(t, p.Sample)
	exported := pproforacle.TopOfBytes(t, body, pproforacle.Options{SampleType: "cpu"})
	require.Equal(t, byRoute["/checkout"], exported.Total, "only the selected samples")
	require.Equal(t, plugintest.Pprof(t, plugintest.CPUFile, "cpu", "route", "/checkout").Flat(), exported.Flat(),
		"every function's flat, as pprof reads the export")

	code, _, body = callResource(t, d, "GET", "export", url.Values{"format": {"json"}, "profileTypeId": {cpuType}})
	require.Equal(t, 400, code)
	require.Contains(t, string(body), `format: \"json\" is not supported`)
}
