// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package store_test

import (
	"fmt"
	"net/http"
	"os"
	"testing"
	"time"

	"github.com/grafana/pyroscope/api/gen/proto/go/querier/v1/querierv1connect"
	settingsv1 "github.com/grafana/pyroscope/api/gen/proto/go/settings/v1"
	"github.com/grafana/pyroscope/api/gen/proto/go/settings/v1/settingsv1connect"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/internal/fixtures"
	"github.com/emberscope/emberscope/internal/pproforacle"
	"github.com/emberscope/emberscope/pkg/store"
	"github.com/emberscope/emberscope/pkg/store/export"
)

var routes = []string{"/checkout", "/search", ""}

// recordingStore opens a store whose recorded series go to url, with two
// rules on service "shop" grouped by route: its CPU, and the CPU in
// encoding/json.Marshal.
func recordingStore(t *testing.T, rw export.RemoteWriteOptions) (*server, *store.Store, string, string) {
	t.Helper()
	st, err := store.Open(store.Options{
		Dir: t.TempDir(), NoIngestWindow: true, NoRetention: true,
		Recording: store.RecordingOptions{Interval: time.Second, RemoteWrite: rw},
	})
	require.NoError(t, err)
	srv := newHTTPServer(t, st)
	t.Cleanup(func() { _ = st.Close() })
	s := &server{t: t, srv: srv, st: st, querier: querierv1connect.NewQuerierServiceClient(srv.Client(), srv.URL)}
	rules := settingsv1connect.NewRecordingRulesServiceClient(srv.Client(), srv.URL)
	selector := `{__profile_type__="` + cpuType + `", service_name="shop"}`
	total := upsertRule(t, rules, &settingsv1.UpsertRecordingRuleRequest{
		MetricName: "profiles_recorded_shop_cpu", Matchers: []string{selector}, GroupBy: []string{"route"},
	})
	json := upsertRule(t, rules, &settingsv1.UpsertRecordingRuleRequest{
		MetricName: "profiles_recorded_shop_json", Matchers: []string{selector}, GroupBy: []string{"route"},
		StacktraceFilter: &settingsv1.StacktraceFilter{FunctionName: &settingsv1.StacktraceFilterFunctionName{FunctionName: "encoding/json.Marshal"}},
	})
	return s, st, total.Id, json.Id
}

func pushShop(t *testing.T, s *server, rel string) {
	t.Helper()
	body, err := os.ReadFile(fixtures.Path(t, rel))
	require.NoError(t, err)
	status, text := s.ingest(ingestParams("shop{env=demo}"), "", body)
	require.Equal(t, http.StatusOK, status, text)
}

// pprofByRoute is google/pprof's total of a profile per route, and the cum
// of encoding/json.Marshal per route.
func pprofByRoute(t *testing.T, rel string) (total, json map[string]float64) {
	total, json = map[string]float64{}, map[string]float64{}
	for _, route := range routes {
		rep := pproforacle.Top(t, fixtures.Path(t, rel), pproforacle.Options{SampleType: "cpu", Labels: map[string]string{"route": route}})
		total[route] = float64(rep.Total)
		json[route] = float64(rep.Funcs["encoding/json.Marshal"].Cum)
	}
	return total, json
}

// TestRecordingRulesReachPrometheus pushes real profiles one interval
// apart and reads the rules' series back from a real Prometheus: each
// interval's value per route is google/pprof's total of the profile pushed
// in it, and with the function filter encoding/json.Marshal's cum.
func TestRecordingRulesReachPrometheus(t *testing.T) {
	prom := startPrometheus(t)
	s, _, totalID, jsonID := recordingStore(t, export.RemoteWriteOptions{URL: prom.RemoteWriteURL()})
	pushes := []string{"profiles/routes-1.cpu.pb.gz", "profiles/routes-2.cpu.pb.gz", "profiles/routes-1.cpu.pb.gz"}
	for k, rel := range pushes {
		pushShop(t, s, rel)
		// The next push waits for this one's interval to reach Prometheus,
		// so that each lands in an interval of its own.
		eventually(t, fmt.Sprintf("interval %d in Prometheus", k+1), func() (bool, string) {
			got := valuesBy(prom.Matrix(`profiles_recorded_shop_json`), "route")
			for _, r := range routes {
				if len(got[r]) < k+1 {
					return false, describe(got)
				}
			}
			return true, ""
		})
	}
	wantTotal, wantJSON := map[string][]float64{}, map[string][]float64{}
	for _, rel := range pushes {
		total, json := pprofByRoute(t, rel)
		for _, r := range routes {
			wantTotal[r] = append(wantTotal[r], total[r])
			wantJSON[r] = append(wantJSON[r], json[r])
		}
	}
	require.Equal(t, wantTotal, valuesBy(prom.Matrix(`profiles_recorded_shop_cpu`), "route"))
	require.Equal(t, wantJSON, valuesBy(prom.Matrix(`profiles_recorded_shop_json`), "route"))
	require.NotZero(t, wantJSON["/checkout"][0], "the filter's function is in the checkout route")

	// The labels of recording 106: __name__, the group_by label, the rule's
	// id and the instance; nothing of the profile that group_by leaves out.
	for _, series := range prom.Matrix(`profiles_recorded_shop_cpu`) {
		m := series.Metric
		require.Equal(t, model.LabelValue(totalID), m["profiles_rule_id"])
		require.Regexp(t, `^[0-9a-f]{16}$`, string(m["pyroscope_instance"]))
		names := []string{}
		for n := range m {
			names = append(names, string(n))
		}
		require.Subset(t, []string{"__name__", "route", "profiles_rule_id", "pyroscope_instance"}, names)
	}
	require.Len(t, prom.Matrix(`profiles_recorded_shop_json{profiles_rule_id="`+jsonID+`"}`), len(routes))
}

// storeCounter reads a counter or gauge of the store's /metrics.
func storeCounter(t *testing.T, s *server, name, reason string) float64 {
	t.Helper()
	resp, err := s.srv.Client().Get(s.srv.URL + "/metrics")
	require.NoError(t, err)
	defer resp.Body.Close()
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(resp.Body)
	require.NoError(t, err)
	f := families[name]
	require.NotNil(t, f, "metric %s", name)
	for _, m := range f.Metric {
		if reason != "" {
			match := false
			for _, l := range m.Label {
				match = match || (l.GetName() == "reason" && l.GetValue() == reason)
			}
			if !match {
				continue
			}
		}
		if m.Counter != nil {
			return m.Counter.GetValue()
		}
		return m.Gauge.GetValue()
	}
	t.Fatalf("metric %s{reason=%q} not found", name, reason)
	return 0
}

// TestRecordingRulesPrometheusOutage stops Prometheus while profiles are
// pushed: every push is acknowledged, the samples of the first two
// intervals wait in the queue (its bound is two intervals' worth) and
// arrive once Prometheus is back, the third interval's are dropped and
// counted, and every profile can still be queried from the store.
func TestRecordingRulesPrometheusOutage(t *testing.T) {
	prom := startPrometheus(t)
	perInterval := 2 * len(routes) // two rules, a series per route
	s, _, _, _ := recordingStore(t, export.RemoteWriteOptions{
		URL: prom.RemoteWriteURL(), QueueSize: 2 * perInterval,
		MinBackoff: 20 * time.Millisecond, MaxBackoff: 200 * time.Millisecond,
	})
	prom.Stop()
	const (
		queued  = "emberscope_recording_remote_write_queue_samples"
		dropped = "emberscope_recording_remote_write_samples_dropped_total"
		retried = "emberscope_recording_remote_write_samples_retried_total"
		sent    = "emberscope_recording_remote_write_samples_sent_total"
	)
	pushes := []string{"profiles/routes-1.cpu.pb.gz", "profiles/routes-2.cpu.pb.gz", "profiles/routes-1.cpu.pb.gz"}
	for k, rel := range pushes[:2] {
		pushShop(t, s, rel)
		eventually(t, fmt.Sprintf("interval %d queued", k+1), func() (bool, string) {
			n := storeCounter(t, s, queued, "")
			return n == float64((k+1)*perInterval), fmt.Sprint("queued ", n)
		})
	}
	eventually(t, "a retry while Prometheus is down", func() (bool, string) {
		n := storeCounter(t, s, retried, "")
		return n > 0, fmt.Sprint("retried ", n)
	})
	pushShop(t, s, pushes[2])
	eventually(t, "the third interval dropped", func() (bool, string) {
		n := storeCounter(t, s, dropped, "queue_full")
		return n == float64(perInterval), fmt.Sprint("dropped ", n)
	})

	prom.Start()
	eventually(t, "the queue delivered", func() (bool, string) {
		n := storeCounter(t, s, sent, "")
		return n == float64(2*perInterval), fmt.Sprint("sent ", n)
	})
	wantTotal, wantJSON := map[string][]float64{}, map[string][]float64{}
	for _, rel := range pushes[:2] {
		total, json := pprofByRoute(t, rel)
		for _, r := range routes {
			wantTotal[r] = append(wantTotal[r], total[r])
			wantJSON[r] = append(wantJSON[r], json[r])
		}
	}
	require.Equal(t, wantTotal, valuesBy(prom.Matrix(`profiles_recorded_shop_cpu`), "route"))
	require.Equal(t, wantJSON, valuesBy(prom.Matrix(`profiles_recorded_shop_json`), "route"))
	require.Zero(t, storeCounter(t, s, queued, ""))

	// Every acknowledged profile is in the store, whatever Prometheus missed.
	var want int64
	for _, rel := range pushes {
		want += pproforacle.Top(t, fixtures.Path(t, rel), pproforacle.Options{SampleType: "cpu"}).Total
	}
	require.Equal(t, want, s.flame(cpuType, `{service_name="shop"}`, 0).total)
}
