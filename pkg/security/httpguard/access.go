// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Package httpguard holds the HTTP protections the store and the playground
// put in front of their handlers: Host checks against DNS rebinding,
// rejection of cross-origin browser writes (CSRF), an optional bearer
// token, request body limits and a bound on concurrent heavy requests.
package httpguard

import (
	"crypto/subtle"
	"fmt"
	"net"
	"net/http"
	"strings"
)

// Access configures Guard.
type Access struct {
	// ListenAddr is the address served (host:port); its host is allowed.
	ListenAddr string
	// AllowedHosts are more host names accepted in the Host header (no
	// port); "*" accepts any.
	AllowedHosts []string
	// AuthToken, when set, is required as "Authorization: Bearer <token>"
	// on every path but Open.
	AuthToken string
	// Open lists paths served without the token (e.g. /ready).
	Open []string
}

// ParseHosts splits a comma-separated -allowed-hosts flag.
func ParseHosts(s string) []string {
	var out []string
	for _, h := range strings.Split(s, ",") {
		if h = strings.TrimSpace(h); h != "" {
			out = append(out, strings.ToLower(h))
		}
	}
	return out
}

// Guard checks Host, refuses cross-origin browser writes and checks the
// token before next.
func (a Access) Guard(next http.Handler) http.Handler {
	cop := http.NewCrossOriginProtection()
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		Error(w, r, http.StatusForbidden, fmt.Sprintf("cross-origin request refused: %s %s from origin %q (browser writes must come from this server's own pages)",
			r.Method, r.URL.Path, r.Header.Get("Origin")))
	}))
	open := make(map[string]bool, len(a.Open))
	for _, p := range a.Open {
		open[p] = true
	}
	allowed := a.allowedHosts()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !allowed(r.Host) {
			Error(w, r, http.StatusForbidden, fmt.Sprintf("host %q is not allowed: add it to -allowed-hosts to serve it", r.Host))
			return
		}
		if a.AuthToken != "" && !open[r.URL.Path] && !a.tokenOK(r) {
			w.Header().Set("WWW-Authenticate", `Bearer realm="emberscope"`)
			Error(w, r, http.StatusUnauthorized, "unauthenticated: this server requires \"Authorization: Bearer <token>\" (-auth-token)")
			return
		}
		cop.Handler(next).ServeHTTP(w, r)
	})
}

func (a Access) tokenOK(r *http.Request) bool {
	h := r.Header.Get("Authorization")
	tok, ok := strings.CutPrefix(h, "Bearer ")
	if !ok {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(strings.TrimSpace(tok)), []byte(a.AuthToken)) == 1
}

// allowedHosts returns the Host check: IP literals (a rebinding attack
// needs a name), localhost, the listen host and the allowed hosts pass.
func (a Access) allowedHosts() func(string) bool {
	names := map[string]bool{"localhost": true}
	any := false
	for _, h := range a.AllowedHosts {
		if h == "*" {
			any = true
		}
		names[strings.ToLower(h)] = true
	}
	if host, _, err := net.SplitHostPort(a.ListenAddr); err == nil && host != "" {
		names[strings.ToLower(host)] = true
	}
	return func(hostport string) bool {
		if any {
			return true
		}
		host := hostport
		if h, _, err := net.SplitHostPort(hostport); err == nil {
			host = h
		}
		host = strings.ToLower(strings.TrimSuffix(strings.Trim(host, "[]"), "."))
		if host == "" {
			return false
		}
		if net.ParseIP(host) != nil || names[host] || strings.HasSuffix(host, ".localhost") {
			return true
		}
		return false
	}
}
