// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package parcatest

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
)

// Handler answers a request with the recorded exchange of the same method,
// path and decoded query parameters (and, for a POST, the same JSON body),
// and like Parca with 404 text/plain "404 page not found" otherwise.
type Handler struct {
	exchanges []Exchange

	mu        sync.Mutex
	unmatched []string
}

// NewHandler serves the given exchanges.
func NewHandler(exchanges []Exchange) *Handler { return &Handler{exchanges: exchanges} }

// ServeHTTP implements http.Handler.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if ex := h.find(r); ex != nil {
		w.Header().Set("Content-Type", ex.ContentType)
		w.WriteHeader(ex.Status)
		_, _ = w.Write(ex.Body)
		return
	}
	h.mu.Lock()
	h.unmatched = append(h.unmatched, r.Method+" "+r.URL.RequestURI())
	h.mu.Unlock()
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(http.StatusNotFound)
	_, _ = io.WriteString(w, "404 page not found\n")
}

// find returns the exchange recorded for r, or nil.
func (h *Handler) find(r *http.Request) *Exchange {
	q := NormalizeQuery(r.URL.Query())
	body := ""
	if r.Method == http.MethodPost {
		b, _ := io.ReadAll(r.Body)
		body = compactJSON(strings.TrimSpace(string(b)))
	}
	for i := range h.exchanges {
		ex := &h.exchanges[i]
		if ex.Method != r.Method || ex.Path != r.URL.Path || !sameQuery(ex.Query, q) {
			continue
		}
		if r.Method == http.MethodPost && ex.RequestBody != body {
			continue
		}
		return ex
	}
	return nil
}

// Unmatched lists the requests ("METHOD /path?query") that matched no
// recording, in arrival order.
func (h *Handler) Unmatched() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.unmatched)
}

// sameQuery compares decoded parameters, repeated values in order.
func sameQuery(a, b map[string][]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, va := range a {
		if !slices.Equal(va, b[k]) {
			return false
		}
	}
	return true
}

// Server is a running replay server.
type Server struct {
	*httptest.Server
	*Handler
}

// NewServer starts a replay of the recordings in dir for the test and stops
// it when the test ends. A missing dir fails the test.
func NewServer(t testing.TB, dir string) *Server {
	t.Helper()
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("Parca recordings not found at %s (%v): these tests replay a real Parca server's answers", dir, err)
	}
	exs, err := Load(dir)
	if err != nil {
		t.Fatalf("loading Parca recordings: %v", err)
	}
	h := NewHandler(exs)
	s := httptest.NewServer(h)
	t.Cleanup(s.Close)
	return &Server{Server: s, Handler: h}
}
