// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package store_test

import (
	"bufio"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"connectrpc.com/connect"
	querierv1 "github.com/grafana/pyroscope/api/gen/proto/go/querier/v1"
	"github.com/grafana/pyroscope/api/gen/proto/go/querier/v1/querierv1connect"
	typesv1 "github.com/grafana/pyroscope/api/gen/proto/go/types/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/trace/noop"
	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"

	"github.com/emberscope/emberscope/pkg/store"
	"github.com/emberscope/emberscope/pkg/store/telemetry"
)

// otlpCollector is a stand-in OTLP/HTTP trace receiver on loopback.
type otlpCollector struct {
	mu       sync.Mutex
	spans    []*tracepb.Span
	resource map[string]string
}

func (c *otlpCollector) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/v1/traces" {
		http.NotFound(w, r)
		return
	}
	body, _ := io.ReadAll(r.Body)
	var req coltracepb.ExportTraceServiceRequest
	if err := proto.Unmarshal(body, &req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	c.mu.Lock()
	for _, rs := range req.ResourceSpans {
		c.resource = map[string]string{}
		for _, kv := range rs.GetResource().GetAttributes() {
			c.resource[kv.Key] = kv.GetValue().GetStringValue()
		}
		for _, ss := range rs.ScopeSpans {
			c.spans = append(c.spans, ss.Spans...)
		}
	}
	c.mu.Unlock()
	w.Header().Set("Content-Type", "application/x-protobuf")
	out, _ := proto.Marshal(&coltracepb.ExportTraceServiceResponse{})
	_, _ = w.Write(out)
}

func spanAttrs(s *tracepb.Span) map[string]string {
	m := map[string]string{}
	for _, kv := range s.Attributes {
		v := kv.GetValue()
		if _, isInt := v.GetValue().(*commonpb.AnyValue_IntValue); isInt {
			m[kv.Key] = strconv.FormatInt(v.GetIntValue(), 10)
		} else {
			m[kv.Key] = v.GetStringValue()
		}
	}
	return m
}

func telIngest(t *testing.T, base, name, folded string, header http.Header) {
	t.Helper()
	q := url.Values{"name": {name}, "format": {"folded"}}
	req, err := http.NewRequest(http.MethodPost, base+"/ingest?"+q.Encode(), strings.NewReader(folded))
	require.NoError(t, err)
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode, string(body))
}

// With the standard OTEL_* variables pointing at a collector, ingest and
// query requests become server spans continuing the caller's trace.
func TestTracingExportsIngestAndQuerySpans(t *testing.T) {
	collector := &otlpCollector{}
	otlp := httptest.NewServer(collector)
	defer otlp.Close()
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", otlp.URL)
	t.Setenv("OTEL_SERVICE_NAME", "")
	t.Setenv("OTEL_RESOURCE_ATTRIBUTES", "deployment.environment=test")
	t.Cleanup(func() { otel.SetTracerProvider(noop.NewTracerProvider()) })

	tracing, err := telemetry.SetupTracing(context.Background())
	require.NoError(t, err)
	require.True(t, tracing.Enabled)
	st, err := store.Open(store.Options{Dir: t.TempDir(), TracerProvider: tracing.Provider})
	require.NoError(t, err)
	defer st.Close()
	srv := httptest.NewServer(st.Handler())
	defer srv.Close()

	traceID := "4bf92f3577b34da6a3ce929d0e0e4736"
	telIngest(t, srv.URL, "checkout{region=\"eu\"}", "main;work 10\nmain;idle 5\n",
		http.Header{"Traceparent": {"00-" + traceID + "-00f067aa0ba902b7-01"}})
	q := querierv1connect.NewQuerierServiceClient(srv.Client(), srv.URL)
	_, err = q.ProfileTypes(context.Background(), connect.NewRequest(&querierv1.ProfileTypesRequest{}))
	require.NoError(t, err)
	resp, err := http.Get(srv.URL + "/ready")
	require.NoError(t, err)
	resp.Body.Close()

	require.NoError(t, tracing.Shutdown(context.Background()), "flushes the spans to the collector")
	collector.mu.Lock()
	defer collector.mu.Unlock()
	byName := map[string]*tracepb.Span{}
	for _, s := range collector.spans {
		byName[s.Name] = s
	}
	require.Contains(t, byName, "POST /ingest")
	require.Contains(t, byName, "querier.v1.QuerierService/ProfileTypes")
	assert.Len(t, collector.spans, 2, "health checks are not traced")

	ingest := byName["POST /ingest"]
	assert.Equal(t, traceID, hex.EncodeToString(ingest.TraceId), "continues the caller's trace")
	assert.Equal(t, tracepb.Span_SPAN_KIND_SERVER, ingest.Kind)
	a := spanAttrs(ingest)
	assert.Equal(t, `checkout{region="eu"}`, a["emberscope.ingest.name"])
	assert.Equal(t, "200", a["http.response.status_code"])
	query := spanAttrs(byName["querier.v1.QuerierService/ProfileTypes"])
	assert.Equal(t, "querier.v1.QuerierService", query["rpc.service"])
	assert.Equal(t, "ProfileTypes", query["rpc.method"])
	assert.Equal(t, "emberscope-store", collector.resource["service.name"])
	assert.Equal(t, "test", collector.resource["deployment.environment"])
}

// metricValues scrapes /metrics and returns each sample line's value by
// its name and labels as written ("name{a=\"b\"}").
func metricValues(t *testing.T, base string) map[string]float64 {
	t.Helper()
	resp, err := http.Get(base + "/metrics")
	require.NoError(t, err)
	defer resp.Body.Close()
	out := map[string]float64{}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		v, err := strconv.ParseFloat(line[i+1:], 64)
		require.NoError(t, err, line)
		out[line[:i]] = v
	}
	return out
}

func TestMemoryGaugesAndFlush(t *testing.T) {
	st, err := store.Open(store.Options{Dir: t.TempDir()})
	require.NoError(t, err)
	defer st.Close()
	srv := httptest.NewServer(st.Handler())
	defer srv.Close()

	empty := metricValues(t, srv.URL)
	var folded strings.Builder
	for i := range 200 {
		fmt.Fprintf(&folded, "main;handler%d;pkg.function_with_a_long_name_%d %d\n", i, i, i+1)
	}
	for i := range 5 {
		telIngest(t, srv.URL, fmt.Sprintf("svc%d{pod=\"pod-%d\"}", i, i), folded.String(), nil)
	}
	full := metricValues(t, srv.URL)
	for _, table := range []string{"strings", "stacks", "series", "postings"} {
		key := `emberscope_store_memory_table_bytes{table="` + table + `"}`
		assert.Greater(t, full[key], empty[key], "%s grows with what was stored", table)
	}
	assert.Greater(t, full["emberscope_store_memory_tables_bytes"], float64(200*30), "at least the 200 function names")
	assert.Less(t, full["emberscope_store_memory_tables_bytes"], float64(1<<20), "an estimate in proportion")
	require.Positive(t, full["emberscope_store_memtable_bytes"])

	resp, err := http.Get(srv.URL + "/flush")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode, "flush is a POST")

	flush := func() (answer struct{ Flushes, L0Tables int64 }) {
		resp, err := http.Post(srv.URL+"/flush", "", nil)
		require.NoError(t, err)
		defer resp.Body.Close()
		require.Equal(t, http.StatusOK, resp.StatusCode)
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&answer))
		return answer
	}
	first := flush()
	assert.Positive(t, first.Flushes)
	assert.Positive(t, first.L0Tables, "the profiles now sit in an sstable")
	telIngest(t, srv.URL, "svc5", "main;more 1\n", nil)
	second := flush()
	assert.Greater(t, second.Flushes, first.Flushes)
	after := metricValues(t, srv.URL)
	assert.Greater(t, after["emberscope_store_memory_tables_bytes"], full["emberscope_store_memory_tables_bytes"])

	// What was flushed is still there.
	q := querierv1connect.NewQuerierServiceClient(srv.Client(), srv.URL)
	names, err := q.LabelValues(context.Background(), connect.NewRequest(&typesv1.LabelValuesRequest{Name: "service_name", Start: 1, End: time.Now().Add(time.Hour).UnixMilli()}))
	require.NoError(t, err)
	assert.Equal(t, []string{"svc0", "svc1", "svc2", "svc3", "svc4", "svc5"}, names.Msg.Names)
}

// Profiles received are counted by type and service; beyond 50 services
// the rest are counted as "other".
func TestProfilesReceivedByServiceWithCardinalityGuard(t *testing.T) {
	st, err := store.Open(store.Options{Dir: t.TempDir()})
	require.NoError(t, err)
	defer st.Close()
	srv := httptest.NewServer(st.Handler())
	defer srv.Close()

	for i := range 53 {
		telIngest(t, srv.URL, fmt.Sprintf("svc-%02d", i), "main;work 1\n", nil)
	}
	telIngest(t, srv.URL, "svc-00", "main;work 1\n", nil)
	m := metricValues(t, srv.URL)
	const cpu = "process_cpu:cpu:nanoseconds:cpu:nanoseconds"
	key := func(service string) string {
		return `emberscope_ingest_profiles_received_total{profile_type="` + cpu + `",service="` + service + `"}`
	}
	assert.Equal(t, 2.0, m[key("svc-00")])
	assert.Equal(t, 1.0, m[key("svc-49")])
	assert.Equal(t, 3.0, m[key("other")], "svc-50, svc-51 and svc-52")
	assert.NotContains(t, m, key("svc-50"))
	var series int
	for k := range m {
		if strings.HasPrefix(k, "emberscope_ingest_profiles_received_total{") {
			series++
		}
	}
	assert.Equal(t, 51, series, "50 services and other")
}
