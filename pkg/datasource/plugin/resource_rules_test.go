// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/grafana/grafana-plugin-sdk-go/backend"
	"github.com/grafana/pyroscope/api/gen/proto/go/settings/v1/settingsv1connect"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/pkg/datasource/plugin/plugintest"
	"github.com/emberscope/emberscope/pkg/datasource/source"
)

// callRules sends a rules call as Grafana does for a user of role (none
// when role is ""), with a JSON body.
func callRules(t *testing.T, d *Datasource, role, method, path string, body any) (int, []byte) {
	t.Helper()
	var b []byte
	if body != nil {
		var err error
		b, err = json.Marshal(body)
		require.NoError(t, err)
	}
	pc := backend.PluginContext{DataSourceInstanceSettings: &backend.DataSourceInstanceSettings{UID: "emberscope"}}
	if role != "" {
		pc.User = &backend.User{Login: "ann", Role: role}
	}
	var got *backend.CallResourceResponse
	err := d.CallResource(context.Background(), &backend.CallResourceRequest{
		PluginContext: pc, Path: strings.SplitN(path, "?", 2)[0], Method: method, URL: path, Body: b,
		Headers: map[string][]string{"Content-Type": {"application/json"}},
	}, backend.CallResourceResponseSenderFunc(func(r *backend.CallResourceResponse) error {
		got = r
		return nil
	}))
	require.NoError(t, err)
	require.NotNil(t, got)
	return got.Status, got.Body
}

func errorOf(t *testing.T, body []byte) string {
	t.Helper()
	var e struct{ Error string }
	require.NoError(t, json.Unmarshal(body, &e), string(body))
	return e.Error
}

func ruleOfBody(t *testing.T, body []byte) source.RecordingRule {
	t.Helper()
	var r source.RecordingRule
	require.NoError(t, json.Unmarshal(body, &r), string(body))
	return r
}

// TestRulesOnlyEditorsAndAdminsChange checks the role check: a viewer (or
// a call without a user) may list but not create, update or delete; an
// editor and an admin may.
func TestRulesOnlyEditorsAndAdminsChange(t *testing.T) {
	fx := storeFixture(t)
	d := newDS(t, fx.url)
	rule := source.RecordingRule{
		MetricName: "profiles_recorded_rules_role_cpu",
		Matchers:   []string{`{__profile_type__="` + cpuType + `", service_name="rules-role"}`},
		GroupBy:    []string{"env"},
	}
	for _, role := range []string{"Viewer", "None", ""} {
		status, body := callRules(t, d, role, http.MethodPost, "rules/upsert", rule)
		require.Equal(t, http.StatusForbidden, status, "role %q: %s", role, body)
		require.Contains(t, errorOf(t, body), "only editors and admins can change recording rules")
	}
	status, body := callRules(t, d, "Editor", http.MethodPost, "rules/upsert", rule)
	require.Equal(t, http.StatusOK, status, string(body))
	saved := ruleOfBody(t, body)
	require.NotEmpty(t, saved.ID)
	require.Equal(t, int64(1), saved.Generation)
	require.Equal(t, cpuType, saved.ProfileType)

	status, body = callRules(t, d, "Viewer", http.MethodGet, "rules", nil)
	require.Equal(t, http.StatusOK, status, string(body))
	var list rulesListAnswer
	require.NoError(t, json.Unmarshal(body, &list))
	require.Contains(t, list.Rules, saved)

	status, body = callRules(t, d, "Viewer", http.MethodGet, "rules/get?id="+saved.ID, nil)
	require.Equal(t, http.StatusOK, status, string(body))
	require.Equal(t, saved, ruleOfBody(t, body))

	saved.FunctionName = plugintest.FuncName("burnCheckout")
	status, body = callRules(t, d, "Admin", http.MethodPost, "rules/upsert", saved)
	require.Equal(t, http.StatusOK, status, string(body))
	updated := ruleOfBody(t, body)
	require.Equal(t, int64(2), updated.Generation)
	require.Equal(t, saved.FunctionName, updated.FunctionName)

	// the stale generation, refused by the server in Pyroscope's words
	status, body = callRules(t, d, "Admin", http.MethodPost, "rules/upsert", saved)
	require.Equal(t, http.StatusConflict, status, string(body))
	require.Equal(t, "conflicting update, please try again", errorOf(t, body))

	status, body = callRules(t, d, "Viewer", http.MethodPost, "rules/delete", map[string]string{"id": saved.ID})
	require.Equal(t, http.StatusForbidden, status, string(body))
	status, body = callRules(t, d, "Admin", http.MethodPost, "rules/delete", map[string]string{"id": saved.ID})
	require.Equal(t, http.StatusOK, status, string(body))
	status, body = callRules(t, d, "Viewer", http.MethodGet, "rules/get?id="+saved.ID, nil)
	require.Equal(t, http.StatusNotFound, status, string(body))
	require.Equal(t, "no rule with id='"+saved.ID+"' found", errorOf(t, body))
}

// TestRulesRefusalsInTheServersWords checks that the server's validation
// reaches the user as recordings 91 and 96 show Pyroscope's texts.
func TestRulesRefusalsInTheServersWords(t *testing.T) {
	fx := storeFixture(t)
	d := newDS(t, fx.url)
	for _, tc := range []struct {
		rule source.RecordingRule
		want string
	}{
		{source.RecordingRule{MetricName: "bad name", Matchers: []string{`{__profile_type__="` + cpuType + `"}`}},
			`invalid request: metric_name "bad name" is invalid: invalid metric name: bad name`},
		{source.RecordingRule{MetricName: "profiles_recorded_x", Matchers: []string{`{__profile_type__="` + cpuType + `"}`}, GroupBy: []string{"not-valid"}},
			`invalid request: group_by label "not-valid" must match ^[a-zA-Z_][a-zA-Z0-9_]*$`},
	} {
		status, body := callRules(t, d, "Editor", http.MethodPost, "rules/upsert", tc.rule)
		require.Equal(t, http.StatusBadRequest, status, string(body))
		require.Equal(t, tc.want, errorOf(t, body))
	}
}

// TestRulesPreviewIsPprof checks the preview against google/pprof: the
// rule's total per step is the profile's total, and with a function
// filter the function's cum (go tool pprof -top), per group_by value.
func TestRulesPreviewIsPprof(t *testing.T) {
	// its own store: the package's shared one must keep exactly its two profiles
	url := plugintest.Store(t)
	d := newDS(t, url)
	plugintest.Ingest(t, url, "rules-preview{env=test}", plugintest.CPUProfile(t))
	report := plugintest.Pprof(t, plugintest.CPUFile, "cpu")
	fn := plugintest.FuncName("burnCheckout")
	require.Positive(t, report.Cum()[fn])
	matchers := []string{`{__profile_type__="` + cpuType + `", service_name="rules-preview"}`}
	for _, tc := range []struct {
		function string
		want     float64
	}{{"", float64(report.Total)}, {fn, float64(report.Cum()[fn])}} {
		status, body := callRules(t, d, "Viewer", http.MethodPost, "rules/preview", source.RecordingRule{
			MetricName: "profiles_recorded_preview", Matchers: matchers, GroupBy: []string{"env"}, FunctionName: tc.function,
		})
		require.Equal(t, http.StatusOK, status, string(body))
		var p previewAnswer
		require.NoError(t, json.Unmarshal(body, &p))
		require.Len(t, p.Series, 1, "one env value")
		require.Equal(t, map[string]string{"env": "test"}, p.Series[0].Labels)
		sum := 0.0
		for _, v := range p.Series[0].Values {
			sum += v
		}
		require.Equal(t, tc.want, sum, "function %q", tc.function)
	}

	status, body := callRules(t, d, "Viewer", http.MethodPost, "rules/preview", source.RecordingRule{Matchers: []string{`{service_name="x"}`}})
	require.Equal(t, http.StatusBadRequest, status)
	require.Equal(t, `matchers must contain a "__profile_type__" matcher`, errorOf(t, body))
}

// TestRulesNotAvailable checks that a Pyroscope without the rules API
// (it answers 404, as one started without
// -tenant-settings.recording-rules.enabled) and Parca are said plainly.
func TestRulesNotAvailable(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(srv.Close)
	status, body := callRules(t, newDS(t, srv.URL), "Viewer", http.MethodGet, "rules", nil)
	require.Equal(t, http.StatusNotImplemented, status, string(body))
	require.Contains(t, errorOf(t, body), "recording rules are not available on the profile server at "+srv.URL)
	require.Contains(t, errorOf(t, body), "-tenant-settings.recording-rules.enabled=true")

	// a server with the service's handler that does not implement it
	mux := http.NewServeMux()
	mux.Handle(settingsv1connect.NewRecordingRulesServiceHandler(settingsv1connect.UnimplementedRecordingRulesServiceHandler{}))
	unimplemented := httptest.NewServer(mux)
	t.Cleanup(unimplemented.Close)
	status, body = callRules(t, newDS(t, unimplemented.URL), "Admin", http.MethodPost, "rules/upsert", source.RecordingRule{MetricName: "profiles_recorded_x"})
	require.Equal(t, http.StatusNotImplemented, status, string(body))
	require.Contains(t, errorOf(t, body), "recording rules are not available on the profile server at "+unimplemented.URL)

	inst, err := NewDatasource(context.Background(), backend.DataSourceInstanceSettings{
		UID: "parca", Type: PluginID, URL: srv.URL, JSONData: json.RawMessage(`{"serverKind":"parca"}`),
	})
	require.NoError(t, err)
	status, body = callRules(t, inst.(*Datasource), "Admin", http.MethodGet, "rules", nil)
	require.Equal(t, http.StatusNotImplemented, status, string(body))
	require.Contains(t, errorOf(t, body), "recording rules are not supported by the profile server")
}
