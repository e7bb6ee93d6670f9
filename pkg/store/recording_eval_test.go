// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package store_test

import (
	"bytes"
	"fmt"
	"net/http"
	"os"
	"sync"
	"testing"
	"time"

	"connectrpc.com/connect"
	settingsv1 "github.com/grafana/pyroscope/api/gen/proto/go/settings/v1"
	"github.com/grafana/pyroscope/api/gen/proto/go/settings/v1/settingsv1connect"
	typesv1 "github.com/grafana/pyroscope/api/gen/proto/go/types/v1"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/model/labels"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/internal/fixtures"
	"github.com/emberscope/emberscope/internal/pproforacle"
	"github.com/emberscope/emberscope/pkg/store"
	"github.com/emberscope/emberscope/pkg/store/recording"
)

// captureSink keeps the recorded points, summed per series.
type captureSink struct {
	mu      sync.Mutex
	sums    map[string]float64
	labels  map[string]labels.Labels
	tenants map[string]bool
}

func newCaptureSink() *captureSink {
	return &captureSink{sums: map[string]float64{}, labels: map[string]labels.Labels{}, tenants: map[string]bool{}}
}

func (c *captureSink) Record(tenant string, points []recording.Point) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.tenants[tenant] = true
	for _, p := range points {
		key := p.Labels.String()
		c.sums[key] += p.Value
		c.labels[key] = p.Labels
	}
}

// byRule returns the summed value of the rule's series, keyed by the value
// of label (the group_by label under test).
func (c *captureSink) byRule(ruleID, label string) map[string]float64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := map[string]float64{}
	for k, ls := range c.labels {
		if ls.Get("profiles_rule_id") == ruleID {
			out[ls.Get(label)] += c.sums[k]
		}
	}
	return out
}

func upsertRule(t *testing.T, c settingsv1connect.RecordingRulesServiceClient, r *settingsv1.UpsertRecordingRuleRequest) *settingsv1.RecordingRule {
	t.Helper()
	resp, err := c.UpsertRecordingRule(t.Context(), connect.NewRequest(r))
	require.NoError(t, err)
	return resp.Msg.Rule
}

// TestRecordingRulesEvaluateAtIngest pushes real CPU profiles and checks
// each rule's series against google/pprof: a rule's value per route is the
// pushed profiles' total of that route, a function filter's the function's
// cum (each sample once), and a rule for another service records nothing.
func TestRecordingRulesEvaluateAtIngest(t *testing.T) {
	sink := newCaptureSink()
	st, err := store.Open(store.Options{Dir: t.TempDir(), NoIngestWindow: true, NoRetention: true, Recording: store.RecordingOptions{Sink: sink}})
	require.NoError(t, err)
	srv := newHTTPServer(t, st)
	s := &server{t: t, srv: srv}
	rules := settingsv1connect.NewRecordingRulesServiceClient(srv.Client(), srv.URL)
	total := upsertRule(t, rules, &settingsv1.UpsertRecordingRuleRequest{
		MetricName:     "profiles_recorded_shop_cpu",
		Matchers:       []string{`{__profile_type__="` + cpuType + `", service_name="shop"}`},
		GroupBy:        []string{"route"},
		ExternalLabels: []*typesv1.LabelPair{{Name: "team", Value: "perf"}},
	})
	malloc := upsertRule(t, rules, &settingsv1.UpsertRecordingRuleRequest{
		MetricName:       "profiles_recorded_shop_malloc",
		Matchers:         []string{`{__profile_type__="` + cpuType + `", service_name="shop"}`},
		GroupBy:          []string{"route"},
		StacktraceFilter: &settingsv1.StacktraceFilter{FunctionName: &settingsv1.StacktraceFilterFunctionName{FunctionName: "runtime.mallocgc"}},
	})
	other := upsertRule(t, rules, &settingsv1.UpsertRecordingRuleRequest{
		MetricName: "profiles_recorded_other",
		Matchers:   []string{`{__profile_type__="` + cpuType + `", service_name="elsewhere"}`},
	})
	pushed := []string{"profiles/routes-1.cpu.pb.gz", "profiles/routes-1.cpu.pb.gz", "profiles/routes-2.cpu.pb.gz"}
	for _, rel := range pushed {
		body, err := os.ReadFile(fixtures.Path(t, rel))
		require.NoError(t, err)
		status, text := s.ingest(ingestParams("shop{env=demo}"), "", body)
		require.Equal(t, 200, status, text)
	}
	require.NoError(t, st.Close()) // hands the open interval to the sink

	wantTotal, wantMalloc := map[string]float64{}, map[string]float64{}
	for _, rel := range pushed {
		for _, route := range []string{"/checkout", "/search", ""} {
			rep := pproforacle.Top(t, fixtures.Path(t, rel), pproforacle.Options{SampleType: "cpu", Labels: map[string]string{"route": route}})
			wantTotal[route] += float64(rep.Total)
			wantMalloc[route] += float64(rep.Funcs["runtime.mallocgc"].Cum)
		}
	}
	require.Equal(t, wantTotal, sink.byRule(total.Id, "route"))
	require.Equal(t, wantMalloc, sink.byRule(malloc.Id, "route"))
	require.Empty(t, sink.byRule(other.Id, "route"))
	// The series' labels as Pyroscope's exporter writes them (recording 106):
	// the name, the group_by label, the external label, the rule and the instance.
	for _, ls := range sink.labels {
		if ls.Get("profiles_rule_id") != total.Id {
			continue
		}
		require.Equal(t, "profiles_recorded_shop_cpu", ls.Get("__name__"))
		require.Equal(t, "perf", ls.Get("team"))
		require.Regexp(t, `^[0-9a-f]{16}$`, ls.Get("pyroscope_instance"))
		require.Empty(t, ls.Get("env"), "env is not a group_by label")
		require.Empty(t, ls.Get("service_name"), "service_name is not a group_by label")
	}
}

// TestRecordingRulesScrapeCounters: without remote write, a rule's series
// are counters on /metrics, growing by each interval's value, so that
// rate() gives the rule's value per second.
func TestRecordingRulesScrapeCounters(t *testing.T) {
	st, err := store.Open(store.Options{Dir: t.TempDir(), NoIngestWindow: true, NoRetention: true, Recording: store.RecordingOptions{Interval: time.Second}})
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	srv := newHTTPServer(t, st)
	s := &server{t: t, srv: srv}
	rules := settingsv1connect.NewRecordingRulesServiceClient(srv.Client(), srv.URL)
	rule := upsertRule(t, rules, &settingsv1.UpsertRecordingRuleRequest{
		MetricName: "profiles_recorded_shop_cpu",
		Matchers:   []string{`{__profile_type__="` + cpuType + `", service_name="shop"}`},
		GroupBy:    []string{"route"},
	})
	pushed := []string{"profiles/routes-1.cpu.pb.gz", "profiles/routes-2.cpu.pb.gz"}
	var want float64
	for _, rel := range pushed {
		pushShop(t, s, rel)
		want += float64(pproforacle.Top(t, fixtures.Path(t, rel), pproforacle.Options{SampleType: "cpu", Labels: map[string]string{"route": "/checkout"}}).Total)
	}
	eventually(t, "the checkout counter on /metrics", func() (bool, string) {
		resp, err := srv.Client().Get(srv.URL + "/metrics")
		require.NoError(t, err)
		defer resp.Body.Close()
		parser := expfmt.NewTextParser(model.UTF8Validation)
		families, err := parser.TextToMetricFamilies(resp.Body)
		require.NoError(t, err)
		f := families["profiles_recorded_shop_cpu"]
		if f == nil {
			return false, "no profiles_recorded_shop_cpu yet"
		}
		require.Equal(t, dto.MetricType_COUNTER, f.GetType())
		for _, m := range f.Metric {
			ls := map[string]string{}
			for _, l := range m.Label {
				ls[l.GetName()] = l.GetValue()
			}
			if ls["route"] == "/checkout" {
				require.Equal(t, rule.Id, ls["profiles_rule_id"])
				return m.Counter.GetValue() == want, fmt.Sprint("counter ", m.Counter.GetValue(), " want ", want)
			}
		}
		return false, "no checkout series yet"
	})
}

// TestRecordingRulesPerTenant: with multitenancy, a tenant's rule sees
// only that tenant's profiles, and its points are handed over as that
// tenant's (remote write sends them with its X-Scope-OrgID).
func TestRecordingRulesPerTenant(t *testing.T) {
	sink := newCaptureSink()
	st, err := store.Open(store.Options{Dir: t.TempDir(), Multitenancy: true, NoIngestWindow: true, NoRetention: true, Recording: store.RecordingOptions{Sink: sink}})
	require.NoError(t, err)
	srv := newHTTPServer(t, st)
	client := settingsv1connect.NewRecordingRulesServiceClient(srv.Client(), srv.URL)
	up := connect.NewRequest(&settingsv1.UpsertRecordingRuleRequest{
		MetricName: "profiles_recorded_shop_cpu",
		Matchers:   []string{`{__profile_type__="` + cpuType + `", service_name="shop"}`},
	})
	up.Header().Set("X-Scope-OrgID", "team-a")
	resp, err := client.UpsertRecordingRule(t.Context(), up)
	require.NoError(t, err)
	body, err := os.ReadFile(fixtures.Path(t, "profiles/routes-1.cpu.pb.gz"))
	require.NoError(t, err)
	for _, tenant := range []string{"team-a", "team-b", "team-b"} {
		req, err := http.NewRequest(http.MethodPost, srv.URL+"/ingest?"+ingestParams("shop").Encode(), bytes.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("X-Scope-OrgID", tenant)
		res, err := srv.Client().Do(req)
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, res.StatusCode)
		require.NoError(t, res.Body.Close())
	}
	require.NoError(t, st.Close())
	want := float64(pproforacle.Top(t, fixtures.Path(t, "profiles/routes-1.cpu.pb.gz"), pproforacle.Options{SampleType: "cpu"}).Total)
	require.Equal(t, map[string]float64{"": want}, sink.byRule(resp.Msg.Rule.Id, "route"), "team-a's one profile, none of team-b's")
	require.Equal(t, map[string]bool{"team-a": true}, sink.tenants)
}
