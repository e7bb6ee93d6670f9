// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package sourcecode

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
	"golang.org/x/mod/module"
	modzip "golang.org/x/mod/zip"
)

// diskFile is a file for modzip.Create read from disk.
type diskFile struct{ name, disk string }

func (f diskFile) Path() string                 { return f.name }
func (f diskFile) Lstat() (os.FileInfo, error)  { return os.Stat(f.disk) }
func (f diskFile) Open() (io.ReadCloser, error) { return os.Open(f.disk) }

// arm64Toolchain serves, as a Go module proxy, only the linux-arm64
// toolchain module of version, made with golang.org/x/mod/zip from this
// machine's standard library, and records the paths asked for.
func arm64Toolchain(t *testing.T, version string) (*httptest.Server, func() []string) {
	t.Helper()
	out, err := exec.Command("go", "env", "GOROOT").Output()
	require.NoError(t, err)
	goroot := strings.TrimSpace(string(out))
	m := module.Version{Path: ToolchainModule, Version: "v0.0.1-" + version + ".linux-arm64"}
	var zipBuf bytes.Buffer
	require.NoError(t, modzip.Create(&zipBuf, m, []modzip.File{
		diskFile{"src/sort/sort.go", filepath.Join(goroot, "src", "sort", "sort.go")},
		diskFile{"src/sort/search.go", filepath.Join(goroot, "src", "sort", "search.go")},
	}))
	var (
		mu    sync.Mutex
		asked []string
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		asked = append(asked, r.URL.Path)
		mu.Unlock()
		if r.URL.Path != "/golang.org/toolchain/@v/"+m.Version+".zip" {
			http.NotFound(w, r)
			return
		}
		_, _ = w.Write(zipBuf.Bytes())
	}))
	t.Cleanup(srv.Close)
	return srv, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), asked...)
	}
}

// TestGoProxyToolchainPlatforms reads the standard library from the
// toolchain module of the profile's platform, and falls back to another
// platform's (the src/ tree is the same) when the proxy lacks it, saying
// which one it showed.
func TestGoProxyToolchainPlatforms(t *testing.T) {
	const version = "go1.26.8"
	srv, asked := arm64Toolchain(t, version)
	out, err := exec.Command("go", "env", "GOROOT").Output()
	require.NoError(t, err)
	sortGo, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(out)), "src", "sort", "sort.go"))
	require.NoError(t, err)
	ctx := context.Background()
	arm64 := "/golang.org/toolchain/@v/v0.0.1-" + version + ".linux-arm64.zip"
	amd64 := "/golang.org/toolchain/@v/v0.0.1-" + version + ".linux-amd64.zip"

	// The profile says linux-arm64: that zip, and no other, is fetched.
	g, err := NewGoProxy(srv.URL, 0)
	require.NoError(t, err)
	defer g.Close()
	f, err := g.Find(ctx, Request{Path: "/usr/local/go/src/sort/sort.go", GoVersion: version, Platform: "linux-arm64"})
	require.NoError(t, err)
	require.Equal(t, sortGo, f.Content)
	require.Contains(t, f.Origin, "golang.org/toolchain@v0.0.1-"+version+".linux-arm64")
	require.Equal(t, []string{arm64}, asked())

	// Unknown platform: linux-amd64 first, then the others; the missing
	// zip is not asked for again for the next file.
	g2, err := NewGoProxy(srv.URL, 0)
	require.NoError(t, err)
	defer g2.Close()
	before := len(asked())
	f, err = g2.Find(ctx, Request{Path: "sort/sort.go", GoVersion: version})
	require.NoError(t, err)
	require.Equal(t, sortGo, f.Content)
	require.Contains(t, f.Origin, ".linux-arm64")
	_, err = g2.Find(ctx, Request{Path: "sort/search.go", GoVersion: version})
	require.NoError(t, err)
	require.Equal(t, []string{amd64, arm64}, asked()[before:])

	// A release the proxy has for no platform is not found, naming each tried.
	_, err = g2.Find(ctx, Request{Path: "sort/sort.go", GoVersion: "go1.21.0", Platform: "freebsd-riscv64"})
	require.True(t, errors.Is(err, ErrNotFound), "%v", err)
	require.ErrorContains(t, err, "no toolchain of go1.21.0 for freebsd-riscv64, linux-amd64, linux-arm64, darwin-arm64, darwin-amd64, windows-amd64")

	// A platform label is untrusted: nothing but <goos>-<goarch> reaches a URL.
	_, err = g2.Find(ctx, Request{Path: "sort/sort.go", GoVersion: version, Platform: "linux-arm64/../../x"})
	var refusal *Refusal
	require.ErrorAs(t, err, &refusal)
	require.ErrorContains(t, err, `the Go platform "linux-arm64/../../x" is not <goos>-<goarch>`)
}
