// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package store_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"connectrpc.com/connect"
	settingsv1 "github.com/grafana/pyroscope/api/gen/proto/go/settings/v1"
	"github.com/grafana/pyroscope/api/gen/proto/go/settings/v1/settingsv1connect"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/emberscope/emberscope/internal/fixtures"
	"github.com/emberscope/emberscope/pkg/store"
	"github.com/emberscope/emberscope/pkg/store/rules"
)

// rulesExchange is one recorded call of Pyroscope v2.2.1's
// RecordingRulesService (internal/fixtures/pyroscope/rules).
type rulesExchange struct {
	name     string
	method   string
	tenant   string
	status   int
	request  string
	response string
}

func readRulesExchanges(t *testing.T) []rulesExchange {
	t.Helper()
	var out []rulesExchange
	for n := 88; n <= 105; n++ {
		matches := fixtures.Glob(t, "pyroscope/rules/"+strconv.Itoa(n)+"-*.request.txt")
		require.Len(t, matches, 1, "recording %d", n)
		req := matches[0]
		ex := rulesExchange{name: strings.TrimSuffix(filepath.Base(req), ".request.txt")}
		f, err := os.Open(req)
		require.NoError(t, err)
		sc := bufio.NewScanner(f)
		inBody := false
		var body strings.Builder
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "POST /settings.v1.RecordingRulesService/"):
				ex.method = strings.TrimPrefix(line, "POST /settings.v1.RecordingRulesService/")
			case strings.HasPrefix(line, "header: X-Scope-OrgID: "):
				ex.tenant = strings.TrimPrefix(line, "header: X-Scope-OrgID: ")
			case strings.HasPrefix(line, "request body"):
				inBody = true
			case strings.HasPrefix(line, "HTTP status: "):
				inBody = false
				ex.status, err = strconv.Atoi(strings.TrimPrefix(line, "HTTP status: "))
				require.NoError(t, err)
			case inBody:
				body.WriteString(line + "\n")
			}
		}
		require.NoError(t, f.Close())
		require.NotEmpty(t, ex.method, ex.name)
		ex.request = body.String()
		resp, err := os.ReadFile(strings.TrimSuffix(req, ".request.txt") + ".response.json")
		require.NoError(t, err)
		ex.response = string(resp)
		out = append(out, ex)
	}
	return out
}

// call sends the exchange's request through Pyroscope's own client and
// returns the answer as a proto message, or the connect error.
func call(ctx context.Context, t *testing.T, c settingsv1connect.RecordingRulesServiceClient, ex rulesExchange, body string) (proto.Message, error) {
	t.Helper()
	switch ex.method {
	case "ListRecordingRules":
		m := &settingsv1.ListRecordingRulesRequest{}
		require.NoError(t, protojson.Unmarshal([]byte(body), m))
		req := connect.NewRequest(m)
		if ex.tenant != "" {
			req.Header().Set("X-Scope-OrgID", ex.tenant)
		}
		resp, err := c.ListRecordingRules(ctx, req)
		if err != nil {
			return nil, err
		}
		return resp.Msg, nil
	case "GetRecordingRule":
		m := &settingsv1.GetRecordingRuleRequest{}
		require.NoError(t, protojson.Unmarshal([]byte(body), m))
		resp, err := c.GetRecordingRule(ctx, connect.NewRequest(m))
		if err != nil {
			return nil, err
		}
		return resp.Msg, nil
	case "UpsertRecordingRule":
		m := &settingsv1.UpsertRecordingRuleRequest{}
		require.NoError(t, protojson.Unmarshal([]byte(body), m))
		resp, err := c.UpsertRecordingRule(ctx, connect.NewRequest(m))
		if err != nil {
			return nil, err
		}
		return resp.Msg, nil
	case "DeleteRecordingRule":
		m := &settingsv1.DeleteRecordingRuleRequest{}
		require.NoError(t, protojson.Unmarshal([]byte(body), m))
		resp, err := c.DeleteRecordingRule(ctx, connect.NewRequest(m))
		if err != nil {
			return nil, err
		}
		return resp.Msg, nil
	}
	t.Fatalf("%s: unknown method %s", ex.name, ex.method)
	return nil, nil
}

// connectCodes maps the recorded JSON error codes to connect's.
var connectCodes = map[string]connect.Code{
	"invalid_argument": connect.CodeInvalidArgument,
	"not_found":        connect.CodeNotFound,
	"already_exists":   connect.CodeAlreadyExists,
}

// TestRecordingRulesReplay sends recordings 88–105 to the store through
// settingsv1connect (as profilecli recording-rules does), over protobuf and
// connect JSON, and compares every answer with Pyroscope's. The id the
// server chose in 89 is random, so the recorded one is replaced by ours in
// later requests and answers.
func TestRecordingRulesReplay(t *testing.T) {
	for _, codec := range []string{"proto", "json"} {
		t.Run(codec, func(t *testing.T) {
			s := newServer(t, t.TempDir())
			var opts []connect.ClientOption
			if codec == "json" {
				opts = append(opts, connect.WithProtoJSON())
			}
			client := settingsv1connect.NewRecordingRulesServiceClient(s.srv.Client(), s.srv.URL, opts...)
			recordedID, ourID := "", ""
			for _, ex := range readRulesExchanges(t) {
				body, want := ex.request, ex.response
				if recordedID != "" {
					body = strings.ReplaceAll(body, recordedID, ourID)
					want = strings.ReplaceAll(want, recordedID, ourID)
				}
				got, err := call(t.Context(), t, client, ex, body)
				if ex.status != 200 {
					var rec struct{ Code, Message string }
					require.NoError(t, json.Unmarshal([]byte(want), &rec))
					require.Error(t, err, ex.name)
					require.Equal(t, connectCodes[rec.Code], connect.CodeOf(err), ex.name)
					var ce *connect.Error
					require.ErrorAs(t, err, &ce)
					require.Equal(t, rec.Message, ce.Message(), ex.name)
					continue
				}
				require.NoError(t, err, ex.name)
				if ex.name == "89-rules-upsert-total" {
					var rec struct{ Rule struct{ ID string } }
					require.NoError(t, json.Unmarshal([]byte(want), &rec))
					recordedID, ourID = rec.Rule.ID, got.(*settingsv1.UpsertRecordingRuleResponse).Rule.Id
					require.Regexp(t, `^[a-zA-Z]{10}$`, ourID)
					want = strings.ReplaceAll(want, recordedID, ourID)
				}
				gotJSON, err := protojson.Marshal(got)
				require.NoError(t, err)
				require.JSONEq(t, want, string(gotJSON), ex.name)
			}
		})
	}
}

// TestRecordingRulesPersist: rules survive a restart with their generation.
func TestRecordingRulesPersist(t *testing.T) {
	s := newServer(t, t.TempDir())
	client := settingsv1connect.NewRecordingRulesServiceClient(s.srv.Client(), s.srv.URL)
	up, err := client.UpsertRecordingRule(t.Context(), connect.NewRequest(&settingsv1.UpsertRecordingRuleRequest{
		MetricName: "profiles_recorded_kept",
		Matchers:   []string{`{__profile_type__="process_cpu:cpu:nanoseconds:cpu:nanoseconds"}`},
	}))
	require.NoError(t, err)
	s = s.restart()
	client = settingsv1connect.NewRecordingRulesServiceClient(s.srv.Client(), s.srv.URL)
	got, err := client.GetRecordingRule(t.Context(), connect.NewRequest(&settingsv1.GetRecordingRuleRequest{Id: up.Msg.Rule.Id}))
	require.NoError(t, err)
	require.True(t, proto.Equal(up.Msg.Rule, got.Msg.Rule), "after restart: %v", got.Msg.Rule)
	_, err = client.UpsertRecordingRule(t.Context(), connect.NewRequest(&settingsv1.UpsertRecordingRuleRequest{
		Id: up.Msg.Rule.Id, MetricName: "profiles_recorded_kept", Generation: 1,
		Matchers: []string{`{__profile_type__="process_cpu:cpu:nanoseconds:cpu:nanoseconds"}`},
	}))
	require.NoError(t, err)
}

// TestRecordingRulesTenants: with multitenancy on, each tenant has its own.
func TestRecordingRulesTenants(t *testing.T) {
	st, err := store.Open(store.Options{Dir: t.TempDir(), Multitenancy: true})
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	srv := newHTTPServer(t, st)
	client := settingsv1connect.NewRecordingRulesServiceClient(srv.Client(), srv.URL)
	up := connect.NewRequest(&settingsv1.UpsertRecordingRuleRequest{
		MetricName: "profiles_recorded_a",
		Matchers:   []string{`{__profile_type__="process_cpu:cpu:nanoseconds:cpu:nanoseconds"}`},
	})
	up.Header().Set("X-Scope-OrgID", "team-a")
	_, err = client.UpsertRecordingRule(t.Context(), up)
	require.NoError(t, err)
	for tenant, n := range map[string]int{"team-a": 1, "team-b": 0} {
		list := connect.NewRequest(&settingsv1.ListRecordingRulesRequest{})
		list.Header().Set("X-Scope-OrgID", tenant)
		resp, err := client.ListRecordingRules(t.Context(), list)
		require.NoError(t, err)
		require.Len(t, resp.Msg.Rules, n, tenant)
	}
}

// TestRecordingRulesProvisioned: rules from the file are listed for every
// tenant, marked provisioned, and refused on Upsert and Delete.
func TestRecordingRulesProvisioned(t *testing.T) {
	file := filepath.Join(t.TempDir(), "rules.yaml")
	require.NoError(t, os.WriteFile(file, []byte(`
- metricName: profiles_recorded_fixed
  matchers: ['{__profile_type__="process_cpu:cpu:nanoseconds:cpu:nanoseconds", service_name="svc"}']
  groupBy: [env]
`), 0o600))
	prov, err := rules.LoadFile(file)
	require.NoError(t, err)
	st, err := store.Open(store.Options{Dir: t.TempDir(), Recording: store.RecordingOptions{Provisioned: prov}})
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	srv := newHTTPServer(t, st)
	client := settingsv1connect.NewRecordingRulesServiceClient(srv.Client(), srv.URL)
	list, err := client.ListRecordingRules(t.Context(), connect.NewRequest(&settingsv1.ListRecordingRulesRequest{}))
	require.NoError(t, err)
	require.Len(t, list.Msg.Rules, 1)
	r := list.Msg.Rules[0]
	require.True(t, r.Provisioned)
	require.Equal(t, "process_cpu:cpu:nanoseconds:cpu:nanoseconds", r.ProfileType)
	require.Regexp(t, `^[a-zA-Z]{10}$`, r.Id)
	_, err = client.UpsertRecordingRule(t.Context(), connect.NewRequest(&settingsv1.UpsertRecordingRuleRequest{
		Id: r.Id, MetricName: r.MetricName, Matchers: r.Matchers, Generation: r.Generation,
	}))
	require.Equal(t, connect.CodeFailedPrecondition, connect.CodeOf(err))
	require.ErrorContains(t, err, "provisioned")
	_, err = client.DeleteRecordingRule(t.Context(), connect.NewRequest(&settingsv1.DeleteRecordingRuleRequest{Id: r.Id}))
	require.Equal(t, connect.CodeFailedPrecondition, connect.CodeOf(err))
}

func newHTTPServer(t *testing.T, st *store.Store) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(st.Handler())
	t.Cleanup(srv.Close)
	return srv
}
