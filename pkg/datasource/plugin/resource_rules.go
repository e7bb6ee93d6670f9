// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/grafana/grafana-plugin-sdk-go/backend"

	"github.com/emberscope/emberscope/pkg/datasource/source"
)

// maxRuleBody bounds the JSON body of a rule call.
const maxRuleBody = 1 << 20

// rulesRoutes serves the recording rules of the configured server
// (settings.v1.RecordingRulesService: the embedded store, or a Pyroscope
// with rules enabled), one file per route:
//
//	GET  rules           the rules (resource_rules_list.go); any user
//	GET  rules/get?id=   one rule (resource_rules_get.go); any user
//	POST rules/upsert    create or update a rule (resource_rules_upsert.go); editors and admins
//	POST rules/delete    remove a rule, body {"id":…} (resource_rules_delete.go); editors and admins
//	POST rules/preview   the series a rule would give (resource_rules_preview.go); any user
func (d *Datasource) rulesRoutes(mux *http.ServeMux) {
	mux.HandleFunc("/rules", d.rulesRoute("rulesList", d.rulesList))
	mux.HandleFunc("/rules/get", d.rulesRoute("rulesGet", d.rulesGet))
	mux.HandleFunc("/rules/upsert", d.rulesRoute("rulesUpsert", editorsOnly(d.rulesUpsert)))
	mux.HandleFunc("/rules/delete", d.rulesRoute("rulesDelete", editorsOnly(d.rulesDelete)))
	mux.HandleFunc("/rules/preview", d.route("rulesPreview", d.rulesPreview))
}

// rulesRoute is route for a rules call: a server without rules (Parca)
// is said plainly, with status 501.
func (d *Datasource) rulesRoute(name string, fn resourceFunc) http.HandlerFunc {
	return d.route(name, func(r *http.Request) (any, error) {
		v, err := fn(r)
		if errors.Is(err, source.ErrNoRecordingRules) {
			return nil, &source.RuleRefusal{Status: http.StatusNotImplemented, Err: err,
				Msg: fmt.Sprintf("recording rules are not supported by the profile server at %s: Parca has no recording rules; use Pyroscope (with -tenant-settings.recording-rules.enabled=true) or the Emberscope store", d.serverURL)}
		}
		return v, err
	})
}

// forbiddenError is a call the user's role does not allow: status 403.
type forbiddenError struct{ msg string }

func (e *forbiddenError) Error() string { return e.msg }

// editorsOnly lets fn run only for a POST by an Editor or an Admin, as the
// request's plugin context names the user's role in the organisation.
// Grafana sends the role with every call; a call without a user is refused.
func editorsOnly(fn resourceFunc) resourceFunc {
	return func(r *http.Request) (any, error) {
		if r.Method != http.MethodPost {
			return nil, &source.RuleRefusal{Status: http.StatusMethodNotAllowed, Msg: r.Method + " is not allowed: changing a rule is a POST"}
		}
		user := backend.UserFromContext(r.Context())
		if user == nil {
			user = backend.PluginConfigFromContext(r.Context()).User
		}
		if user == nil {
			return nil, &forbiddenError{msg: "only editors and admins can change recording rules, and this request names no user"}
		}
		switch strings.ToLower(user.Role) {
		case "editor", "admin":
			return fn(r)
		}
		role := user.Role
		if role == "" {
			role = "no role"
		}
		return nil, &forbiddenError{msg: fmt.Sprintf("only editors and admins can change recording rules: %s has the role %s in this organisation", user.Login, role)}
	}
}

// recordingRules is the server's rules API (source.ErrNoRecordingRules
// when it has none).
func (d *Datasource) recordingRules(context.Context) (source.RecordingRules, error) {
	return source.RulesOf(d.src)
}

// ruleBody reads a rule from a JSON body.
func ruleBody(r *http.Request) (source.RecordingRule, error) {
	var rule source.RecordingRule
	if r.Method != http.MethodPost || r.Body == nil {
		return rule, userErrorf("send the rule as a JSON object in a POST body")
	}
	b, err := io.ReadAll(io.LimitReader(r.Body, maxRuleBody+1))
	if err != nil {
		return rule, userErrorf("cannot read the request body: %v", err)
	}
	if len(b) > maxRuleBody {
		return rule, userErrorf("the rule's JSON is larger than %d bytes", maxRuleBody)
	}
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rule); err != nil {
		return rule, userErrorf("the request body is not a rule: %v", err)
	}
	return rule, nil
}
