// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Package settings holds the datasource's settings: what an admin types into the
// datasource's configuration page (jsonData and secureJsonData), parsed and
// checked so that a wrong field is reported by name.
package settings

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/grafana/grafana-plugin-sdk-go/backend"
	"github.com/grafana/grafana-plugin-sdk-go/backend/gtime"
	"github.com/grafana/grafana-plugin-sdk-go/backend/httpclient"

	"github.com/emberscope/emberscope/pkg/profile/model"
)

// DefaultMinStep is the smallest step of a series when minStep is not set.
const DefaultMinStep = 15 * time.Second

// DefaultTimeout bounds one call to the profile server when timeout is not set.
const DefaultTimeout = 30 * time.Second

// TenantHeader carries the tenant to a multi-tenant Pyroscope.
const TenantHeader = "X-Scope-OrgID"

// Settings are the checked settings of one datasource instance.
type Settings struct {
	// URL is the profile server's base URL, e.g. http://localhost:4040.
	URL string
	// TenantID, when set, is sent as X-Scope-OrgID.
	TenantID string
	// Timeout bounds each call to the profile server.
	Timeout time.Duration
	// MinStep is the smallest step of a series.
	MinStep time.Duration
	// BasicAuth turns on basic authentication with BasicAuthUser and Secrets.BasicAuthPassword.
	BasicAuth     bool
	BasicAuthUser string
	// TLSSkipVerify accepts any server certificate.
	TLSSkipVerify bool
	// ServerKind is the API the server speaks: model.ServerPyroscope,
	// model.ServerParca, or model.ServerAuto (the default) to detect it at
	// the first call.
	ServerKind model.ServerKind
	// MaxQueryLength is the server's longest query range (Pyroscope's
	// max_query_length); 0, the default, learns it from the server.
	MaxQueryLength time.Duration
	// TracingDatasourceUID is the tracing datasource (Tempo, Jaeger, ...)
	// that span exemplars with a trace id link to; "" for none.
	TracingDatasourceUID string
	Secrets              Secrets
	// Source says where the source view finds source files (source.go).
	Source Source
}

// Authentication methods of jsonData.authMethod, as the config editor writes them.
const (
	AuthNone   = "none"
	AuthBasic  = "basic"
	AuthBearer = "bearer"
)

// Secrets come from secureJsonData and are never sent back to the browser.
type Secrets struct {
	BasicAuthPassword string
	BearerToken       string
}

// jsonData is the raw shape of the datasource's jsonData.
type jsonData struct {
	URL           *string         `json:"url"`
	TenantID      *string         `json:"tenantId"`
	Timeout       json.RawMessage `json:"timeout"`
	MinStep       *string         `json:"minStep"`
	BasicAuth     *bool           `json:"basicAuth"`
	BasicAuthUser *string         `json:"basicAuthUser"`
	TLSSkipVerify *bool           `json:"tlsSkipVerify"`
	AuthMethod    *string         `json:"authMethod"`
	ServerKind    *string         `json:"serverKind"`
	// MaxQueryLength is read by querylength.go.
	MaxQueryLength *string `json:"maxQueryLength"`
	// TracingDatasourceUID is written by the config editor's tracing
	// datasource picker.
	TracingDatasourceUID *string `json:"tracingDatasourceUid"`
}

// FieldError says which settings field is wrong and why.
type FieldError struct {
	Field string
	Msg   string
}

func (e *FieldError) Error() string { return "settings: " + e.Field + ": " + e.Msg }

func fieldErr(field, format string, args ...any) error {
	return &FieldError{Field: field, Msg: fmt.Sprintf(format, args...)}
}

// Load parses and checks the settings of a datasource instance. The URL is
// the instance's URL field, or jsonData.url when that is empty.
func Load(s backend.DataSourceInstanceSettings) (*Settings, error) {
	var raw jsonData
	if len(s.JSONData) > 0 && string(s.JSONData) != "null" {
		if err := json.Unmarshal(s.JSONData, &raw); err != nil {
			return nil, fieldErr("jsonData", "not valid JSON of the expected shape: %v", err)
		}
	}
	out := &Settings{
		URL:           strings.TrimSpace(s.URL),
		Timeout:       DefaultTimeout,
		MinStep:       DefaultMinStep,
		BasicAuth:     s.BasicAuthEnabled,
		BasicAuthUser: s.BasicAuthUser,
		Secrets: Secrets{
			BasicAuthPassword: s.DecryptedSecureJSONData["basicAuthPassword"],
			BearerToken:       s.DecryptedSecureJSONData["bearerToken"],
		},
	}
	if out.URL == "" && raw.URL != nil {
		out.URL = strings.TrimSpace(*raw.URL)
	}
	u, err := model.ParseServerURL(out.URL)
	if err != nil {
		return nil, fieldErr("url", "%v", err)
	}
	out.URL = u.String()
	if raw.TenantID != nil {
		out.TenantID = strings.TrimSpace(*raw.TenantID)
	}
	if len(raw.Timeout) > 0 && string(raw.Timeout) != "null" {
		d, err := parseTimeout(raw.Timeout)
		if err != nil {
			return nil, err
		}
		out.Timeout = d
	}
	if raw.MinStep != nil && strings.TrimSpace(*raw.MinStep) != "" {
		d, err := gtime.ParseDuration(strings.TrimSpace(*raw.MinStep))
		if err != nil || d <= 0 {
			return nil, fieldErr("jsonData.minStep", "%q is not a positive duration (write it like \"15s\" or \"1m\")", *raw.MinStep)
		}
		out.MinStep = d
	}
	if raw.BasicAuth != nil {
		out.BasicAuth = out.BasicAuth || *raw.BasicAuth
	}
	if raw.BasicAuthUser != nil && out.BasicAuthUser == "" {
		out.BasicAuthUser = *raw.BasicAuthUser
	}
	if raw.TLSSkipVerify != nil {
		out.TLSSkipVerify = *raw.TLSSkipVerify
	}
	if err := out.applyAuthMethod(raw.AuthMethod); err != nil {
		return nil, err
	}
	if err := out.setServerKind(raw.ServerKind); err != nil {
		return nil, err
	}
	if out.MaxQueryLength, err = parseMaxQueryLength(raw.MaxQueryLength); err != nil {
		return nil, err
	}
	if raw.TracingDatasourceUID != nil {
		out.TracingDatasourceUID = strings.TrimSpace(*raw.TracingDatasourceUID)
	}
	if out.Source, err = loadSource(s.JSONData, s.DecryptedSecureJSONData); err != nil {
		return nil, err
	}
	return out, nil
}

// applyAuthMethod settles the authentication: the config editor's explicit
// authMethod wins; without it, basic authentication when it is on, else the
// bearer token when one is set.
func (s *Settings) applyAuthMethod(method *string) error {
	m := ""
	if method != nil {
		m = strings.TrimSpace(*method)
	}
	switch m {
	case "":
		if s.BasicAuth && s.Secrets.BearerToken != "" {
			return fieldErr("secureJsonData.bearerToken", "set together with basic authentication; use one of the two")
		}
	case AuthNone:
		s.BasicAuth, s.Secrets = false, Secrets{}
	case AuthBasic:
		s.BasicAuth, s.Secrets.BearerToken = true, ""
	case AuthBearer:
		s.BasicAuth, s.Secrets.BasicAuthPassword = false, ""
		if s.Secrets.BearerToken == "" {
			return fieldErr("secureJsonData.bearerToken", "required when the authentication method is bearer")
		}
	default:
		return fieldErr("jsonData.authMethod", "%q is not one of none, basic, bearer", m)
	}
	if s.BasicAuth && s.BasicAuthUser == "" {
		return fieldErr("basicAuthUser", "required when basic authentication is on")
	}
	return nil
}

func (s *Settings) setServerKind(kind *string) error {
	s.ServerKind = model.ServerAuto
	if kind == nil {
		return nil
	}
	k, err := model.ParseServerKind(*kind)
	if err != nil {
		return fieldErr("jsonData.serverKind", "%v", err)
	}
	s.ServerKind = k
	return nil
}

// parseTimeout accepts seconds as a JSON number or a numeric string.
func parseTimeout(raw json.RawMessage) (time.Duration, error) {
	var n float64
	if err := json.Unmarshal(raw, &n); err != nil {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return 0, fieldErr("jsonData.timeout", "%s is not a number of seconds", raw)
		}
		if strings.TrimSpace(s) == "" {
			return DefaultTimeout, nil
		}
		if n, err = strconv.ParseFloat(strings.TrimSpace(s), 64); err != nil {
			return 0, fieldErr("jsonData.timeout", "%q is not a number of seconds", s)
		}
	}
	if n < 0 {
		return 0, fieldErr("jsonData.timeout", "%v seconds is negative", n)
	}
	if n == 0 {
		return DefaultTimeout, nil
	}
	return time.Duration(n * float64(time.Second)), nil
}

// HTTPClientOptions returns the options of the SDK's HTTP client for these
// settings: Grafana's own (proxy, TLS, custom headers) from the instance, plus
// the timeout, authentication and tenant header.
func (s *Settings) HTTPClientOptions(ctx context.Context, inst backend.DataSourceInstanceSettings) (httpclient.Options, error) {
	opts, err := inst.HTTPClientOptions(ctx)
	if err != nil {
		return httpclient.Options{}, fmt.Errorf("settings: %w", err)
	}
	if opts.Timeouts == nil {
		t := httpclient.DefaultTimeoutOptions
		opts.Timeouts = &t
	}
	opts.Timeouts.Timeout = s.Timeout
	if s.BasicAuth {
		opts.BasicAuth = &httpclient.BasicAuthOptions{User: s.BasicAuthUser, Password: s.Secrets.BasicAuthPassword}
	} else {
		opts.BasicAuth = nil
	}
	if s.TLSSkipVerify {
		if opts.TLS == nil {
			opts.TLS = &httpclient.TLSOptions{}
		}
		opts.TLS.InsecureSkipVerify = true
	}
	if opts.Header == nil {
		opts.Header = http.Header{}
	}
	if s.TenantID != "" {
		opts.Header.Set(TenantHeader, s.TenantID)
	}
	if s.Secrets.BearerToken != "" {
		opts.Header.Set("Authorization", "Bearer "+s.Secrets.BearerToken)
	}
	return opts, nil
}
