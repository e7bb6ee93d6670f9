// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package playground

import (
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/grafana/grafana-plugin-sdk-go/data"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/pkg/datasource/plugin/plugintest"
)

const cpuType = "process_cpu:cpu:nanoseconds:cpu:nanoseconds"

// start serves the playground in front of backendURL with static files from dir.
func start(t *testing.T, backendURL, dir string) string {
	t.Helper()
	h, err := New(Options{BackendURL: backendURL, StaticDir: dir, Logger: slog.New(slog.DiscardHandler)})
	require.NoError(t, err)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}

func do(t *testing.T, method, url, body string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	require.NoError(t, err)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, b
}

// result is one refId of Grafana's /api/ds/query answer.
type result struct {
	Frames []*data.Frame `json:"frames"`
	Error  string        `json:"error"`
	Status int           `json:"status"`
}

// selfByName sums a flamegraph frame's self values per function name, read
// from the frame JSON as Grafana's frontend reads it (enum or string labels).
func selfByName(t *testing.T, f *data.Frame) map[string]int64 {
	t.Helper()
	label, li := f.FieldByName("label")
	self, si := f.FieldByName("self")
	require.True(t, li >= 0 && si >= 0, "flamegraph frame with label and self fields")
	var text []string
	if label.Config != nil && label.Config.TypeConfig != nil && label.Config.TypeConfig.Enum != nil {
		text = label.Config.TypeConfig.Enum.Text
	}
	out := map[string]int64{}
	for i := 0; i < f.Rows(); i++ {
		name := ""
		switch v := label.At(i).(type) {
		case data.EnumItemIndex:
			name = text[v]
		case string:
			name = v
		}
		out[name] += self.At(i).(int64)
	}
	return out
}

// TestQueryThroughGrafanaShapes checks, through Grafana's HTTP shapes, the
// flamegraph of a recorded CPU profile against google/pprof (the oracle: go
// tool pprof -top): the root total and every function's self.
func TestQueryThroughGrafanaShapes(t *testing.T) {
	storeURL := plugintest.Store(t)
	plugintest.Ingest(t, storeURL, "shop", plugintest.CPUProfile(t))
	want := plugintest.Pprof(t, plugintest.CPUFile, "cpu")
	total := want.Total
	base := start(t, storeURL, t.TempDir())

	now := time.Now()
	from := strconv.FormatInt(now.Add(-time.Hour).UnixMilli(), 10)
	to := strconv.FormatInt(now.Add(time.Minute).UnixMilli(), 10)
	body := `{"from":"` + from + `","to":` + to + `,"queries":[
		{"refId":"A","datasource":{"uid":"emberscope"},"queryType":"both","profileTypeId":"` + cpuType + `","labelSelector":"{service_name=\"shop\"}","groupBy":[],"maxNodes":16384},
		{"refId":"B","datasource":{"uid":"emberscope"},"queryType":"profile","profileTypeId":"` + cpuType + `","labelSelector":"{service_name="}
	]}`
	code, raw := do(t, "POST", base+"/api/ds/query", body)
	require.Equal(t, http.StatusMultiStatus, code, "one query failed: 207 so the other's frames still arrive")
	var out struct {
		Results map[string]result `json:"results"`
	}
	require.NoError(t, json.Unmarshal(raw, &out), string(raw))

	a := out.Results["A"]
	require.Empty(t, a.Error)
	require.Len(t, a.Frames, 2, "flamegraph and one series")
	fg := a.Frames[0]
	require.Equal(t, data.VisType(data.VisTypeFlameGraph), fg.Meta.PreferredVisualization)
	value, _ := fg.FieldByName("value")
	require.Equal(t, total, value.At(0).(int64), "root total = pprof total, through the HTTP API")
	self := map[string]int64{}
	for name, v := range selfByName(t, fg) {
		if v != 0 {
			self[name] = v
		}
	}
	require.Equal(t, want.Flat(), self, "self = pprof flat for every function, through the HTTP API")

	b := out.Results["B"]
	require.Contains(t, b.Error, "labelSelector")
	require.Equal(t, http.StatusBadRequest, b.Status)

	// Relative times as Grafana accepts them.
	code, raw = do(t, "POST", base+"/api/ds/query", `{"from":"now-1h","to":"now+1m","queries":[{"refId":"M","queryType":"metrics","profileTypeId":"`+cpuType+`"}]}`)
	require.Equal(t, http.StatusOK, code, string(raw))
	require.NoError(t, json.Unmarshal(raw, &out))
	require.Len(t, out.Results["M"].Frames, 1)
}

func TestQueryRequestErrors(t *testing.T) {
	base := start(t, plugintest.Store(t), t.TempDir())
	cases := map[string]struct {
		body string
		code int
		msg  string
	}{
		"not json":     {`{"from":`, 400, "the body is not a JSON query request"},
		"no queries":   {`{"from":"now-1h","to":"now","queries":[]}`, 400, "no queries found"},
		"bad from":     {`{"from":"yesterday","to":"now","queries":[{"refId":"A"}]}`, 400, `from: "yesterday" is not a time`},
		"missing to":   {`{"from":"now-1h","queries":[{"refId":"A"}]}`, 400, "from and to are both required"},
		"other ds uid": {`{"from":"now-1h","to":"now","queries":[{"refId":"A","datasource":{"uid":"loki"}}]}`, 404, `Data source not found: the playground serves only uid "emberscope", not "loki"`},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			code, raw := do(t, "POST", base+"/api/ds/query", c.body)
			require.Equal(t, c.code, code, string(raw))
			var m struct{ Message string }
			require.NoError(t, json.Unmarshal(raw, &m))
			require.Contains(t, m.Message, c.msg)
		})
	}
}

func TestResourcesAndHealth(t *testing.T) {
	storeURL := plugintest.Store(t)
	base := start(t, storeURL, t.TempDir())

	code, raw := do(t, "GET", base+"/api/datasources/uid/emberscope/health", "")
	require.Equal(t, http.StatusBadRequest, code)
	require.Contains(t, string(raw), "holds no profiles")

	plugintest.Ingest(t, storeURL, "shop", plugintest.CPUProfile(t))

	code, raw = do(t, "GET", base+"/api/datasources/uid/emberscope/health", "")
	require.Equal(t, http.StatusOK, code, string(raw))
	require.Contains(t, string(raw), `"status":"OK"`)

	code, raw = do(t, "GET", base+"/api/datasources/uid/emberscope/resources/profileTypes", "")
	require.Equal(t, http.StatusOK, code, string(raw))
	var types []struct{ ID, Label string }
	require.NoError(t, json.Unmarshal(raw, &types))
	ids := []string{}
	for _, tp := range types {
		ids = append(ids, tp.ID)
	}
	require.Contains(t, ids, cpuType)

	code, raw = do(t, "GET", base+"/api/datasources/uid/emberscope/resources/labelNames?matchers="+urlq(`{service_name="shop"}`), "")
	require.Equal(t, http.StatusOK, code, string(raw))
	require.Contains(t, string(raw), `"service_name"`)
	require.Contains(t, string(raw), `"route"`)

	code, raw = do(t, "POST", base+"/api/datasources/uid/emberscope/resources/labelValues", `{"label":"route","selector":"{}","profileTypeId":"`+cpuType+`"}`)
	require.Equal(t, http.StatusOK, code, string(raw))
	var values []string
	require.NoError(t, json.Unmarshal(raw, &values))
	require.Equal(t, plugintest.Routes, values)

	code, raw = do(t, "GET", base+"/api/datasources/uid/emberscope/resources/labelValues", "")
	require.Equal(t, http.StatusBadRequest, code)
	require.Contains(t, string(raw), "label: required")

	code, raw = do(t, "GET", base+"/api/datasources/uid/emberscope/resources/labelNames?matchers="+urlq(`{a=`), "")
	require.Equal(t, http.StatusBadRequest, code)
	require.Contains(t, string(raw), "matchers:")

	code, _ = do(t, "GET", base+"/api/datasources/uid/nope/resources/profileTypes", "")
	require.Equal(t, http.StatusNotFound, code)
}

func TestUnreachableBackend(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	url := "http://" + l.Addr().String()
	require.NoError(t, l.Close())
	base := start(t, url, t.TempDir())

	code, raw := do(t, "GET", base+"/api/datasources/uid/emberscope/health", "")
	require.Equal(t, http.StatusBadRequest, code)
	require.Contains(t, string(raw), "cannot reach profile server at "+url+": connection refused")

	code, raw = do(t, "GET", base+"/api/datasources/uid/emberscope/resources/profileTypes", "")
	require.Equal(t, http.StatusBadGateway, code)
	require.Contains(t, string(raw), "cannot reach profile server")
}

func TestStaticFiles(t *testing.T) {
	storeURL := plugintest.Store(t)
	missing := start(t, storeURL, filepath.Join(t.TempDir(), "nothing"))
	code, raw := do(t, "GET", missing+"/", "")
	require.Equal(t, http.StatusServiceUnavailable, code)
	require.Contains(t, string(raw), "npm run build:playground")

	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "index.html"), []byte("<h1>page</h1>"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "app.js"), []byte("console.log(1)"), 0o644))
	built := start(t, storeURL, dir)
	code, raw = do(t, "GET", built+"/", "")
	require.Equal(t, http.StatusOK, code)
	require.Equal(t, "<h1>page</h1>", string(raw))
	code, raw = do(t, "GET", built+"/app.js", "")
	require.Equal(t, http.StatusOK, code)
	require.Equal(t, "console.log(1)", string(raw))
	code, raw = do(t, "GET", built+"/explore", "")
	require.Equal(t, http.StatusOK, code, "client-side routes get the page")
	require.Equal(t, "<h1>page</h1>", string(raw))
	code, _ = do(t, "GET", built+"/missing.js", "")
	require.Equal(t, http.StatusNotFound, code)
	code, _ = do(t, "GET", built+"/api/unknown", "")
	require.Equal(t, http.StatusNotFound, code)
}

func urlq(s string) string {
	return strings.NewReplacer("{", "%7B", "}", "%7D", `"`, "%22", "=", "%3D").Replace(s)
}
