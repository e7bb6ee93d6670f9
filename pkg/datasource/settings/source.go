// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package settings

import (
	"encoding/json"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
)

// Source says where the source view looks for a profile's source files,
// in this order: local roots, the profile server's VCS service, GitHub, a
// Go module proxy.
type Source struct {
	// Roots are folders on the Grafana server holding source trees.
	Roots []string
	// ServerVCS asks the profile server's vcs.v1.VCSService (Pyroscope).
	ServerVCS bool
	// GitHubAPIURL is GitHub's or a GitHub Enterprise server's API base;
	// "" leaves GitHub out.
	GitHubAPIURL string
	// GitHubToken comes from secureJsonData.githubToken; it is sent to
	// GitHubAPIURL only, never to the browser or the logs.
	GitHubToken string
	// GoProxyURL is a Go module proxy's base; "" leaves it out.
	GoProxyURL string
	// GoVersion is the Go release (go1.22.4) whose standard library is
	// shown when the profile has no go_version label.
	GoVersion string
	// GoPlatform is the <goos>-<goarch> (linux-arm64) whose toolchain
	// module is read first when the profile has no go_platform label;
	// "" means linux-amd64.
	GoPlatform string
}

type sourceJSON struct {
	SourceRoots  json.RawMessage `json:"sourceRoots"`
	ServerVCS    *bool           `json:"sourceServerVcs"`
	GitHubAPIURL *string         `json:"githubApiUrl"`
	GoProxyURL   *string         `json:"goProxyUrl"`
	GoVersion    *string         `json:"goVersion"`
	GoPlatform   *string         `json:"goPlatform"`
}

var goPlatformSetting = regexp.MustCompile(`^[a-z0-9]+-[a-z0-9]+$`)

var goVersionSetting = regexp.MustCompile(`^go1(\.[0-9]+){1,2}((rc|beta)[0-9]+)?$`)

// loadSource reads the source view's settings from jsonData and the
// GitHub token from secureJsonData.
func loadSource(jsonData []byte, secure map[string]string) (Source, error) {
	out := Source{ServerVCS: true, GitHubToken: secure["githubToken"]}
	var raw sourceJSON
	if len(jsonData) > 0 && string(jsonData) != "null" {
		if err := json.Unmarshal(jsonData, &raw); err != nil {
			return out, fieldErr("jsonData", "not valid JSON of the expected shape: %v", err)
		}
	}
	roots, err := parseRoots(raw.SourceRoots)
	if err != nil {
		return out, err
	}
	out.Roots = roots
	if raw.ServerVCS != nil {
		out.ServerVCS = *raw.ServerVCS
	}
	if out.GitHubAPIURL, err = parseSourceBase("jsonData.githubApiUrl", raw.GitHubAPIURL); err != nil {
		return out, err
	}
	if out.GoProxyURL, err = parseSourceBase("jsonData.goProxyUrl", raw.GoProxyURL); err != nil {
		return out, err
	}
	if raw.GoVersion != nil {
		v := strings.TrimSpace(*raw.GoVersion)
		if v != "" && !strings.HasPrefix(v, "go") {
			v = "go" + v
		}
		if v != "" && !goVersionSetting.MatchString(v) {
			return out, fieldErr("jsonData.goVersion", "%q is not a Go release such as go1.22.4", *raw.GoVersion)
		}
		out.GoVersion = v
	}
	if raw.GoPlatform != nil {
		v := strings.TrimSpace(*raw.GoPlatform)
		if v != "" && !goPlatformSetting.MatchString(v) {
			return out, fieldErr("jsonData.goPlatform", "%q is not <goos>-<goarch> such as linux-arm64", *raw.GoPlatform)
		}
		out.GoPlatform = v
	}
	if out.GitHubToken != "" && out.GitHubAPIURL == "" {
		return out, fieldErr("secureJsonData.githubToken", "set without jsonData.githubApiUrl; the token is sent to that API only")
	}
	return out, nil
}

// parseRoots accepts a list of absolute folders, or one string of them
// separated by commas or new lines.
func parseRoots(raw json.RawMessage) ([]string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var list []string
	if err := json.Unmarshal(raw, &list); err != nil {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, fieldErr("jsonData.sourceRoots", "%s is neither a list of folders nor a string of them", raw)
		}
		list = strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == '\n' })
	}
	var out []string
	for _, r := range list {
		r = strings.TrimSpace(r)
		if r == "" {
			continue
		}
		if !filepath.IsAbs(r) {
			return nil, fieldErr("jsonData.sourceRoots", "%q is not an absolute folder", r)
		}
		out = append(out, filepath.Clean(r))
	}
	return out, nil
}

func parseSourceBase(field string, raw *string) (string, error) {
	if raw == nil || strings.TrimSpace(*raw) == "" {
		return "", nil
	}
	s := strings.TrimRight(strings.TrimSpace(*raw), "/")
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return "", fieldErr(field, "%q is not an http(s) URL without credentials, query or fragment", *raw)
	}
	return s, nil
}
