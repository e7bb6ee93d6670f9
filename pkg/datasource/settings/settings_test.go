// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package settings

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/grafana/grafana-plugin-sdk-go/backend"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/pkg/profile/model"
)

func TestLoadFull(t *testing.T) {
	s, err := Load(backend.DataSourceInstanceSettings{
		URL:                     "http://pyro:4040/",
		JSONData:                []byte(`{"tenantId":" team-a ","timeout":"12","minStep":"1m","basicAuth":true,"basicAuthUser":"u","tlsSkipVerify":true}`),
		DecryptedSecureJSONData: map[string]string{"basicAuthPassword": "p"},
	})
	require.NoError(t, err)
	require.Equal(t, "http://pyro:4040", s.URL)
	require.Equal(t, "team-a", s.TenantID)
	require.Equal(t, 12*time.Second, s.Timeout)
	require.Equal(t, time.Minute, s.MinStep)
	require.True(t, s.BasicAuth)
	require.True(t, s.TLSSkipVerify)

	opts, err := s.HTTPClientOptions(context.Background(), backend.DataSourceInstanceSettings{URL: s.URL, JSONData: []byte(`{}`)})
	require.NoError(t, err)
	require.Equal(t, "team-a", opts.Header.Get(TenantHeader))
	require.Equal(t, 12*time.Second, opts.Timeouts.Timeout)
	require.Equal(t, "u", opts.BasicAuth.User)
	require.Equal(t, "p", opts.BasicAuth.Password)
	require.True(t, opts.TLS.InsecureSkipVerify)
}

func TestLoadDefaultsAndJSONURL(t *testing.T) {
	s, err := Load(backend.DataSourceInstanceSettings{
		JSONData:                []byte(`{"url":"https://example.test"}`),
		DecryptedSecureJSONData: map[string]string{"bearerToken": "tok"},
	})
	require.NoError(t, err)
	require.Equal(t, "https://example.test", s.URL)
	require.Equal(t, DefaultTimeout, s.Timeout)
	require.Equal(t, DefaultMinStep, s.MinStep)
	opts, err := s.HTTPClientOptions(context.Background(), backend.DataSourceInstanceSettings{URL: s.URL})
	require.NoError(t, err)
	require.Equal(t, "Bearer tok", opts.Header.Get("Authorization"))
	require.Empty(t, opts.Header.Get(TenantHeader))
}

func TestLoadErrorsNameTheField(t *testing.T) {
	cases := []struct {
		name, url, json string
		secure          map[string]string
		want            string
	}{
		{"no url", "", `{}`, nil, "settings: url: the server URL is empty"},
		{"bad scheme", "pyro:4040", `{}`, nil, "settings: url: \"pyro:4040\" must start with http:// or https://"},
		{"no host", "http://", `{}`, nil, "settings: url: \"http://\" has no host"},
		{"bad json", "http://h", `{"timeout":`, nil, "settings: jsonData: not valid JSON"},
		{"bad timeout", "http://h", `{"timeout":"soon"}`, nil, "settings: jsonData.timeout: \"soon\" is not a number of seconds"},
		{"negative timeout", "http://h", `{"timeout":-1}`, nil, "settings: jsonData.timeout: -1 seconds is negative"},
		{"bad minStep", "http://h", `{"minStep":"fast"}`, nil, "settings: jsonData.minStep: \"fast\" is not a positive duration"},
		{"wrong type", "http://h", `{"tenantId":5}`, nil, "settings: jsonData: not valid JSON of the expected shape"},
		{"basic auth without user", "http://h", `{"basicAuth":true}`, nil, "settings: basicAuthUser: required when basic authentication is on"},
		{"both auths", "http://h", `{"basicAuth":true,"basicAuthUser":"u"}`, map[string]string{"bearerToken": "t"}, "settings: secureJsonData.bearerToken"},
		{"bearer without token", "http://h", `{"authMethod":"bearer"}`, nil, "settings: secureJsonData.bearerToken: required when the authentication method is bearer"},
		{"bad auth method", "http://h", `{"authMethod":"oauth"}`, nil, `settings: jsonData.authMethod: "oauth" is not one of none, basic, bearer`},
		{"bad server kind", "http://h", `{"serverKind":"tempo"}`, nil, `settings: jsonData.serverKind: "tempo" is not one of pyroscope, parca, auto`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Load(backend.DataSourceInstanceSettings{URL: c.url, JSONData: []byte(c.json), DecryptedSecureJSONData: c.secure})
			require.Error(t, err)
			require.Contains(t, err.Error(), c.want)
		})
	}
}

func TestAuthMethodWins(t *testing.T) {
	s, err := Load(backend.DataSourceInstanceSettings{
		URL: "http://h", BasicAuthEnabled: true, BasicAuthUser: "u",
		JSONData:                []byte(`{"authMethod":"bearer","serverKind":"Parca"}`),
		DecryptedSecureJSONData: map[string]string{"bearerToken": "tok", "basicAuthPassword": "p"},
	})
	require.NoError(t, err)
	require.False(t, s.BasicAuth, "authMethod bearer turns basic authentication off")
	require.Equal(t, "tok", s.Secrets.BearerToken)
	require.Equal(t, model.ServerParca, s.ServerKind)

	s, err = Load(backend.DataSourceInstanceSettings{
		URL: "http://h", JSONData: []byte(`{"authMethod":"none"}`),
		DecryptedSecureJSONData: map[string]string{"bearerToken": "tok"},
	})
	require.NoError(t, err)
	require.Empty(t, s.Secrets.BearerToken)
	require.Equal(t, model.ServerAuto, s.ServerKind, "the server's kind is detected unless set")
}

func TestLoadSourceSettings(t *testing.T) {
	s, err := Load(backend.DataSourceInstanceSettings{
		URL: "http://localhost:4040",
		JSONData: json.RawMessage(`{"sourceRoots":["/src/app","/usr/local/go/src/"],"githubApiUrl":"https://ghe.example.com/api/v3/",` +
			`"goProxyUrl":"http://proxy.internal:8080","goVersion":"1.22.4","goPlatform":"linux-arm64","sourceServerVcs":false,"authMethod":"none"}`),
		DecryptedSecureJSONData: map[string]string{"githubToken": "ghp_secret"},
	})
	require.NoError(t, err)
	require.Equal(t, Source{
		Roots:        []string{"/src/app", "/usr/local/go/src"},
		GitHubAPIURL: "https://ghe.example.com/api/v3",
		GitHubToken:  "ghp_secret",
		GoProxyURL:   "http://proxy.internal:8080",
		GoVersion:    "go1.22.4",
		GoPlatform:   "linux-arm64",
	}, s.Source, "the token survives authMethod none, which is about the profile server")

	for _, tc := range []struct{ jsonData, secret, msg string }{
		{`{"sourceRoots":["src/app"]}`, "", `jsonData.sourceRoots: "src/app" is not an absolute folder`},
		{`{"sourceRoots":7}`, "", `jsonData.sourceRoots: 7 is neither a list`},
		{`{"githubApiUrl":"ftp://x"}`, "", `jsonData.githubApiUrl: "ftp://x" is not an http(s) URL`},
		{`{"goProxyUrl":"https://u:p@proxy"}`, "", `jsonData.goProxyUrl: "https://u:p@proxy" is not an http(s) URL without credentials`},
		{`{"goVersion":"latest"}`, "", `jsonData.goVersion: "latest" is not a Go release`},
		{`{"goPlatform":"linux/arm64"}`, "", `jsonData.goPlatform: "linux/arm64" is not <goos>-<goarch>`},
		{`{}`, "tok", `secureJsonData.githubToken: set without jsonData.githubApiUrl`},
	} {
		_, err := Load(backend.DataSourceInstanceSettings{URL: "http://localhost:4040", JSONData: json.RawMessage(tc.jsonData),
			DecryptedSecureJSONData: map[string]string{"githubToken": tc.secret}})
		require.ErrorContains(t, err, tc.msg, tc.jsonData)
	}
}
