// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package model

import (
	"errors"
	"fmt"
	"github.com/emberscope/emberscope/pkg/security/redact"
	"net/url"
	"strings"
)

// ServerKind is the API a profile server speaks.
type ServerKind string

const (
	// ServerAuto means "find out": probe the server at the first call.
	ServerAuto ServerKind = "auto"
	// ServerPyroscope is Grafana Pyroscope's querier.v1 connect API (and the
	// embedded store, which speaks it).
	ServerPyroscope ServerKind = "pyroscope"
	// ServerParca is Parca's REST API.
	ServerParca ServerKind = "parca"
)

// ParseServerKind reads a kind as settings spell it: "pyroscope", "parca",
// and "auto" or "" for ServerAuto; case and surrounding spaces do not matter.
func ParseServerKind(s string) (ServerKind, error) {
	switch k := ServerKind(strings.ToLower(strings.TrimSpace(s))); k {
	case "", ServerAuto:
		return ServerAuto, nil
	case ServerPyroscope, ServerParca:
		return k, nil
	}
	return "", fmt.Errorf("%q is not one of pyroscope, parca, auto", s)
}

// ErrEmptyURL is the error of ParseServerURL on an empty URL.
var ErrEmptyURL = errors.New("the server URL is empty: give the profile server's address, e.g. http://localhost:4040")

// ParseServerURL checks the base URL of a profile server and returns it
// without a trailing slash: http or https, a host, an optional path prefix
// (a reverse proxy's), no query and no fragment. Surrounding spaces are
// dropped. The error quotes the URL and says what is wrong.
func ParseServerURL(raw string) (*url.URL, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return nil, ErrEmptyURL
	}
	shown := redact.URL(raw)
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("%q is not a URL: %v", shown, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("%q must start with http:// or https://", shown)
	}
	if u.Host == "" {
		return nil, fmt.Errorf("%q has no host", shown)
	}
	if u.RawQuery != "" || u.ForceQuery || u.Fragment != "" {
		return nil, fmt.Errorf("%q must not have a query or fragment", shown)
	}
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawPath = ""
	return u, nil
}
