// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package sourcecode

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
}

// TestLocalRootsLongestSuffix finds a build machine's absolute path, a
// -trimpath module path and a standard library path by their longest
// suffix present under a root.
func TestLocalRootsLongestSuffix(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "app", "main.go"), "package main // app\n")
	writeFile(t, filepath.Join(root, "main.go"), "package main // top\n")
	writeFile(t, filepath.Join(root, "example.com", "mod@v1.2.0", "x.go"), "package mod\n")
	writeFile(t, filepath.Join(root, "runtime", "proc.go"), "package runtime\n")
	l := &LocalRoots{Roots: []string{root}}
	for path, want := range map[string]string{
		"/home/ci/src/app/main.go":          "package main // app\n",
		"/home/ci/src/main.go":              "package main // top\n",
		"example.com/mod@v1.2.0/x.go":       "package mod\n",
		"/usr/local/go/src/runtime/proc.go": "package runtime\n",
		"runtime/proc.go":                   "package runtime\n",
	} {
		f, err := l.Find(context.Background(), Request{Path: path})
		require.NoError(t, err, path)
		require.Equal(t, want, string(f.Content), path)
	}
}

// TestLocalRootsRefusals: no path from a profile reads outside a root.
func TestLocalRootsRefusals(t *testing.T) {
	outside := t.TempDir()
	writeFile(t, filepath.Join(outside, "secret.go"), "package secret\n")
	root := t.TempDir()
	require.NoError(t, os.Symlink(filepath.Join(outside, "secret.go"), filepath.Join(root, "link.go")))
	require.NoError(t, os.Symlink(outside, filepath.Join(root, "linkdir")))
	writeFile(t, filepath.Join(root, "big.go"), strings.Repeat("x", 2048))
	l := &LocalRoots{Roots: []string{root}, MaxFileBytes: 1024}

	for _, tc := range []struct{ path, msg string }{
		{"../" + filepath.Base(outside) + "/secret.go", "climbs out with .."},
		{"/src/app/../../etc/passwd", "climbs out with .."},
		{"/work/app/link.go", "leads outside the root"},
		{"/work/app/linkdir/secret.go", "under source root " + root},
		{"/work/app/big.go", "is 2048 bytes, over the cap of 1024 bytes"},
	} {
		_, err := l.Find(context.Background(), Request{Path: tc.path})
		var r *Refusal
		require.ErrorAs(t, err, &r, tc.path)
		require.ErrorContains(t, err, tc.msg, tc.path)
	}
	// An absolute path outside every root is looked up by its suffixes
	// inside the roots only: the file itself is never read.
	_, err := l.Find(context.Background(), Request{Path: filepath.Join(outside, "secret.go")})
	require.ErrorIs(t, err, ErrNotFound)
	require.ErrorContains(t, err, "no suffix of "+filepath.Join(outside, "secret.go")+" is a file under "+root)
}

func TestModuleAndStdlibPaths(t *testing.T) {
	m, rel, ok, err := ModuleFile("/root/go/pkg/mod/github.com/!burnt!sushi/toml@v1.6.0/decode.go")
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, "github.com/BurntSushi/toml", m.Path)
	require.Equal(t, "v1.6.0", m.Version)
	require.Equal(t, "decode.go", rel)

	_, _, _, err = ModuleFile("/root/go/pkg/mod/example.com/m@v1.0.0/../../../etc/passwd")
	require.ErrorContains(t, err, "climbs out with ..")

	_, _, ok, err = ModuleFile("/home/me/app/main.go")
	require.NoError(t, err)
	require.False(t, ok)

	rel, ok = StdlibFile("/usr/local/go/src/runtime/proc.go")
	require.True(t, ok)
	require.Equal(t, "runtime/proc.go", rel)
	_, ok = StdlibFile("/home/me/src/github.com/me/app/main.go")
	require.False(t, ok, "a first element with a dot is not a standard package")
}

// TestGoProxyRefusals: a proxy answering garbage, a file over the cap and a
// redirect away from the configured base are clear errors.
func TestGoProxyRefusals(t *testing.T) {
	var zipBuf bytes.Buffer
	zw := zip.NewWriter(&zipBuf)
	w, err := zw.Create("example.com/m@v1.0.0/big.go")
	require.NoError(t, err)
	_, _ = w.Write(bytes.Repeat([]byte("x"), 4096))
	require.NoError(t, zw.Close())
	elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("a redirect outside the base was followed: %s", r.URL)
	}))
	defer elsewhere.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/example.com/garbage/@v/v1.0.0.zip":
			_, _ = w.Write([]byte("<html>this is not a zip</html>"))
		case "/example.com/m/@v/v1.0.0.zip":
			_, _ = w.Write(zipBuf.Bytes())
		case "/example.com/away/@v/v1.0.0.zip":
			http.Redirect(w, r, elsewhere.URL+"/x.zip", http.StatusFound)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	g, err := NewGoProxy(srv.URL, 0)
	require.NoError(t, err)
	defer g.Close()
	g.MaxFileBytes = 1024

	_, err = g.Find(context.Background(), Request{Path: "/go/pkg/mod/example.com/garbage@v1.0.0/x.go"})
	require.ErrorContains(t, err, "the module proxy sent a zip of example.com/garbage@v1.0.0 that is not a valid module zip")

	_, err = g.Find(context.Background(), Request{Path: "/go/pkg/mod/example.com/m@v1.0.0/big.go"})
	require.ErrorContains(t, err, "big.go in example.com/m@v1.0.0 is 4096 bytes, over the cap of 1024 bytes")

	_, err = g.Find(context.Background(), Request{Path: "/go/pkg/mod/example.com/away@v1.0.0/x.go"})
	require.ErrorContains(t, err, "outside the configured base "+srv.URL)

	_, err = g.Find(context.Background(), Request{Path: "/go/pkg/mod/example.com/missing@v1.0.0/x.go"})
	require.True(t, errors.Is(err, ErrNotFound), "%v", err)

	_, err = g.Find(context.Background(), Request{Path: "/usr/local/go/src/runtime/proc.go"})
	require.ErrorContains(t, err, "the Go version is unknown")

	small, err := NewGoProxy(srv.URL, 0)
	require.NoError(t, err)
	defer small.Close()
	small.MaxZipBytes = 100
	_, err = small.Find(context.Background(), Request{Path: "/go/pkg/mod/example.com/m@v1.0.0/big.go"})
	require.ErrorContains(t, err, "over the cap of 100 bytes")
}

// TestGitHubRefusals: a repository label that is not a repository, a path
// outside the repository, and an API base that is not http(s).
func TestGitHubRefusals(t *testing.T) {
	_, err := NewGitHub("file:///etc", "", 0)
	require.ErrorContains(t, err, `githubApiUrl: "file:///etc" is not an http(s) base URL`)
	g, err := NewGitHub("https://github.invalid/api/v3", "", 0)
	require.NoError(t, err)
	_, err = g.Find(context.Background(), Request{Path: "/src/app/main.go", Repository: "https://github.com/acme/../etc"})
	require.ErrorContains(t, err, "is not a repository URL")
	_, err = g.Find(context.Background(), Request{Path: "/src/app/../../main.go", Repository: "https://github.com/acme/app", RootPath: "/src/app"})
	require.ErrorContains(t, err, "climbs out with ..")
	_, err = g.Find(context.Background(), Request{Path: "/elsewhere/main.go", Repository: "github.com/acme/app", RootPath: "/src/app"})
	require.ErrorIs(t, err, ErrNotFound)
}
