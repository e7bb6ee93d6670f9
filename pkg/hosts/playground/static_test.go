// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package playground

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/require"
)

// get asks h for target, with If-None-Match when etag is not empty.
func get(h http.Handler, target, etag string) *http.Response {
	req := httptest.NewRequest(http.MethodGet, target, nil)
	if etag != "" {
		req.Header.Set("If-None-Match", etag)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Result()
}

// An embedded page (files without a modification time, as go:embed gives
// them): content-named scripts are kept, everything else is revalidated by
// its ETag and answered 304 when unchanged.
func TestStaticCachingEmbedded(t *testing.T) {
	h := staticHandler(fstest.MapFS{
		"index.html":                 {Data: []byte("<script src=/playground.4a7e07a7.js></script>")},
		"playground.4a7e07a7.js":     {Data: []byte("console.log(1)")},
		"model-worker.js":            {Data: []byte("onmessage = () => {}")},
		"public/fonts/inter/a.woff2": {Data: []byte("font")},
	})

	res := get(h, "/playground.4a7e07a7.js", "")
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Equal(t, "public, max-age=31536000, immutable", res.Header.Get("Cache-Control"))

	for _, target := range []string{"/", "/explore", "/a/emberscope-app/services", "/model-worker.js", "/public/fonts/inter/a.woff2"} {
		res = get(h, target, "")
		require.Equal(t, http.StatusOK, res.StatusCode, target)
		require.Equal(t, "no-cache", res.Header.Get("Cache-Control"), target)
		tag := res.Header.Get("ETag")
		require.NotEmpty(t, tag, target)
		again := get(h, target, tag)
		require.Equal(t, http.StatusNotModified, again.StatusCode, target)
		require.Equal(t, http.StatusOK, get(h, target, `"another"`).StatusCode, target)
	}
	// the routes all answer index.html: one tag, which differs from the worker's
	require.Equal(t, get(h, "/", "").Header.Get("ETag"), get(h, "/explore", "").Header.Get("ETag"))
	require.NotEqual(t, get(h, "/", "").Header.Get("ETag"), get(h, "/model-worker.js", "").Header.Get("ETag"))
}

// A page served from a directory (-static) can change while served: no ETag
// from its bytes at start, Last-Modified revalidates it.
func TestStaticCachingDirectory(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "index.html"), []byte("<h1>page</h1>"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "model-worker.js"), []byte("1"), 0o644))
	h := staticHandler(os.DirFS(dir))
	for _, target := range []string{"/", "/model-worker.js"} {
		res := get(h, target, "")
		require.Equal(t, http.StatusOK, res.StatusCode, target)
		require.Equal(t, "no-cache", res.Header.Get("Cache-Control"), target)
		require.Empty(t, res.Header.Get("ETag"), target)
		require.NotEmpty(t, res.Header.Get("Last-Modified"), target)
	}
}
