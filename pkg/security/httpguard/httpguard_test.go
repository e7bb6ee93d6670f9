// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package httpguard

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestConcurrencyQueuesThenRefuses(t *testing.T) {
	release := make(chan struct{})
	entered := make(chan struct{}, 4)
	h := Concurrency(1, 1, []string{"/Heavy"}, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/Heavy") {
			entered <- struct{}{}
			<-release
		}
	}))
	l := h.(*limiter)
	srv := httptest.NewServer(h)
	defer srv.Close()
	post := func() (int, string) {
		resp, err := srv.Client().Post(srv.URL+"/svc/Heavy", "application/json", strings.NewReader("{}"))
		require.NoError(t, err)
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body)
	}
	var wg sync.WaitGroup
	codes := make(chan int, 2)
	wg.Add(2)
	go func() { defer wg.Done(); c, _ := post(); codes <- c }()
	<-entered // the first runs
	go func() { defer wg.Done(); c, _ := post(); codes <- c }()
	for l.waiting.Load() != 1 { // the second waits
		runtime.Gosched()
	}
	status, body := post() // the third finds the slot and the queue taken
	require.Equal(t, http.StatusTooManyRequests, status)
	require.Contains(t, body, "-max-concurrent-queries 1")
	// Light paths are never limited.
	resp, err := srv.Client().Get(srv.URL + "/svc/Light")
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, 200, resp.StatusCode)
	close(release)
	wg.Wait()
	require.Equal(t, 200, <-codes)
	require.Equal(t, 200, <-codes)
}

func TestAccess(t *testing.T) {
	h := Access{ListenAddr: "127.0.0.1:4040", AllowedHosts: []string{"pyroscope"}, AuthToken: "tok", Open: []string{"/ready"}}.
		Guard(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	do := func(method, host, path string, hdr map[string]string) int {
		r := httptest.NewRequestWithContext(context.Background(), method, "http://"+host+path, strings.NewReader("x"))
		for k, v := range hdr {
			r.Header.Set(k, v)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w.Code
	}
	auth := map[string]string{"Authorization": "Bearer tok"}
	require.Equal(t, 200, do("GET", "127.0.0.1:4040", "/ready", nil))
	require.Equal(t, 401, do("POST", "127.0.0.1:4040", "/ingest", nil))
	require.Equal(t, 401, do("POST", "127.0.0.1:4040", "/ingest", map[string]string{"Authorization": "Bearer nope"}))
	require.Equal(t, 200, do("POST", "127.0.0.1:4040", "/ingest", auth))
	require.Equal(t, 200, do("POST", "pyroscope:4040", "/ingest", auth))
	require.Equal(t, 200, do("POST", "localhost:4040", "/ingest", auth))
	require.Equal(t, 403, do("POST", "attacker.example:4040", "/ingest", auth))
	require.Equal(t, 403, do("POST", "127.0.0.1:4040", "/ingest", map[string]string{"Authorization": "Bearer tok", "Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"}))
	require.Equal(t, 200, do("POST", "127.0.0.1:4040", "/ingest", map[string]string{"Authorization": "Bearer tok", "Origin": "http://127.0.0.1:4040", "Sec-Fetch-Site": "same-origin"}))
}
