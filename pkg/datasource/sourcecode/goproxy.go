// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package sourcecode

import (
	"archive/zip"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/mod/module"
	modzip "golang.org/x/mod/zip"
	"golang.org/x/sync/singleflight"
)

// ToolchainModule is the module whose zips hold a Go release, the
// standard library's source under src/.
const ToolchainModule = "golang.org/toolchain"

// GoProxy finds Go module files and the standard library in module zips
// from a Go module proxy, fetched as the go command fetches them
// (<base>/<module>/@v/<version>.zip) and checked with golang.org/x/mod/zip.
type GoProxy struct {
	base baseURL
	hc   *http.Client
	// Platform is the toolchain zip's <goos>-<goarch> tried when the
	// profile does not name one; others are tried after it.
	Platform     string
	MaxZipBytes  int64
	MaxFileBytes int64

	group singleflight.Group
	mu    sync.Mutex
	zips  []cachedZip // most recent last
	// missing are module versions the proxy answered 404 or 410 for, not
	// asked again.
	missing map[string]bool
}

type cachedZip struct {
	key  string
	path string
}

// noZipError says the proxy has no such module version; it is an
// ErrNotFound.
type noZipError struct{ msg string }

func (e *noZipError) Error() string        { return ErrNotFound.Error() + ": " + e.msg }
func (e *noZipError) Is(target error) bool { return target == ErrNotFound }

// maxMissing bounds the memo of module versions the proxy does not have.
const maxMissing = 256

// keptZips is how many downloaded zips stay on disk for the next file.
const keptZips = 2

// NewGoProxy returns the provider for the proxy at base.
func NewGoProxy(base string, timeout time.Duration) (*GoProxy, error) {
	b, err := parseBase("goProxyUrl", base)
	if err != nil {
		return nil, err
	}
	return &GoProxy{base: b, hc: newHTTPClient(b, timeout)}, nil
}

// Name implements Provider.
func (g *GoProxy) Name() string { return "Go module proxy at " + g.base.String() }

// Close removes the zips kept on disk.
func (g *GoProxy) Close() {
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, z := range g.zips {
		_ = os.Remove(z.path)
	}
	g.zips = nil
}

// Find implements Provider.
func (g *GoProxy) Find(ctx context.Context, r Request) (*File, error) {
	if m, rel, ok, err := ModuleFile(r.Path); ok || err != nil {
		if err != nil {
			return nil, err
		}
		content, err := g.file(ctx, m, rel)
		if err != nil {
			return nil, err
		}
		return &File{Content: content, Origin: "module " + m.Path + "@" + m.Version, Provider: "goproxy"}, nil
	}
	rel, ok := StdlibFile(r.Path)
	if !ok {
		return nil, notFoundf("%s is neither in a module (…/pkg/mod/<module>@<version>/…) nor in the standard library (…/src/<package>/…)", r.Path)
	}
	if r.GoVersion == "" {
		return nil, notFoundf("%s is in the standard library, but the Go version is unknown: set it in the datasource's settings or label the profile go_version", r.Path)
	}
	if !goVersionPattern.MatchString(r.GoVersion) {
		return nil, fmt.Errorf("the Go version %q is not a release name such as go1.22.4", r.GoVersion)
	}
	var misses []string
	for _, platform := range g.platforms(r.Platform) {
		if !platformPattern.MatchString(platform) {
			return nil, refusef("the Go platform %q is not <goos>-<goarch> such as linux-arm64", platform)
		}
		m := module.Version{Path: ToolchainModule, Version: "v0.0.1-" + r.GoVersion + "." + platform}
		content, err := g.file(ctx, m, "src/"+rel)
		if noZip := (*noZipError)(nil); errors.As(err, &noZip) {
			misses = append(misses, platform)
			continue
		}
		if err != nil {
			return nil, err
		}
		return &File{Content: content, Origin: "Go " + r.GoVersion + " standard library (" + m.Path + "@" + m.Version + ")", Provider: "goproxy", GoVersion: r.GoVersion}, nil
	}
	return nil, notFoundf("the module proxy has no toolchain of %s for %s", r.GoVersion, strings.Join(misses, ", "))
}

// platformPattern is a toolchain module's <goos>-<goarch>.
var platformPattern = regexp.MustCompile(`^[a-z0-9]+-[a-z0-9]+$`)

// fallbackPlatforms are tried, in order, after the profile's platform: the
// standard library's src/ tree is the same in every platform's toolchain,
// so a proxy holding any of them serves the file.
var fallbackPlatforms = []string{"linux-amd64", "linux-arm64", "darwin-arm64", "darwin-amd64", "windows-amd64"}

// platforms lists the toolchain platforms to try: the request's (a
// profile's go_platform label), the provider's setting, then the fallbacks.
func (g *GoProxy) platforms(requested string) []string {
	var out []string
	for _, p := range append([]string{requested, g.Platform}, fallbackPlatforms...) {
		if p != "" && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

var goVersionPattern = regexp.MustCompile(`^go1(\.[0-9]+){1,2}((rc|beta)[0-9]+)?$`)

// ModuleFile reads a module path and version from a file path of the module
// cache (…/pkg/mod/<escaped module>@<escaped version>/<file>) or of a
// -trimpath build (<module>@<version>/<file>). ok is false for any other path.
func ModuleFile(p string) (m module.Version, rel string, ok bool, err error) {
	p = strings.ReplaceAll(p, "\\", "/")
	rest := p
	if i := strings.LastIndex(p, "/pkg/mod/"); i >= 0 {
		rest = p[i+len("/pkg/mod/"):]
	} else if strings.HasPrefix(p, "/") {
		return m, "", false, nil
	}
	at := strings.Index(rest, "@")
	if at < 0 {
		return m, "", false, nil
	}
	slash := strings.Index(rest[at:], "/")
	if slash < 0 {
		return m, "", false, nil
	}
	escMod, escVer, file := rest[:at], rest[at+1:at+slash], rest[at+slash+1:]
	if m.Path, err = module.UnescapePath(escMod); err != nil {
		return m, "", false, refusef("module path %q in %s: %v", escMod, p, err)
	}
	if m.Version, err = module.UnescapeVersion(escVer); err != nil {
		return m, "", false, refusef("module version %q in %s: %v", escVer, p, err)
	}
	if err := module.Check(m.Path, m.Version); err != nil {
		return m, "", false, refusef("%s: %v", p, err)
	}
	if rel, err = cleanRelative(file); err != nil {
		return m, "", false, err
	}
	return m, rel, true, nil
}

// StdlibFile reads the standard library file of a Go root's path
// (…/src/runtime/proc.go) or a -trimpath path (runtime/proc.go): its path
// under src, whose first element (a standard package) has no dot.
func StdlibFile(p string) (string, bool) {
	p = strings.ReplaceAll(p, "\\", "/")
	rel := p
	if i := strings.LastIndex(p, "/src/"); i >= 0 {
		rel = p[i+len("/src/"):]
	} else if strings.HasPrefix(p, "/") {
		return "", false
	}
	first, _, found := strings.Cut(rel, "/")
	if !found || strings.Contains(first, ".") || strings.Contains(rel, "@") {
		return "", false
	}
	rel, err := cleanRelative(rel)
	return rel, err == nil
}

// file reads one file of a module's zip.
func (g *GoProxy) file(ctx context.Context, m module.Version, rel string) ([]byte, error) {
	zipPath, err := g.zip(ctx, m)
	if err != nil {
		return nil, err
	}
	zr, err := zip.OpenReader(zipPath)
	if err != nil {
		return nil, fmt.Errorf("the zip of %s@%s cannot be read: %v", m.Path, m.Version, err)
	}
	defer zr.Close()
	limit := g.MaxFileBytes
	if limit <= 0 {
		limit = DefaultMaxFileBytes
	}
	name := m.Path + "@" + m.Version + "/" + rel
	for _, f := range zr.File {
		if f.Name != name {
			continue
		}
		if f.UncompressedSize64 > uint64(limit) {
			return nil, refusef("%s in %s@%s is %d bytes, over the cap of %d bytes", rel, m.Path, m.Version, f.UncompressedSize64, limit)
		}
		rc, err := f.Open()
		if err != nil {
			return nil, fmt.Errorf("%s in the zip of %s@%s: %v", rel, m.Path, m.Version, err)
		}
		defer rc.Close()
		b, err := io.ReadAll(io.LimitReader(rc, limit+1))
		if err != nil {
			return nil, fmt.Errorf("%s in the zip of %s@%s: %v", rel, m.Path, m.Version, err)
		}
		if int64(len(b)) > limit {
			return nil, refusef("%s in %s@%s is over the cap of %d bytes", rel, m.Path, m.Version, limit)
		}
		return b, nil
	}
	return nil, notFoundf("the zip of %s@%s has no %s", m.Path, m.Version, rel)
}

// zip returns the path of the module's zip on disk, downloading and
// checking it when it is not among the last ones kept.
func (g *GoProxy) zip(ctx context.Context, m module.Version) (string, error) {
	key := m.Path + "@" + m.Version
	g.mu.Lock()
	if g.missing[key] {
		g.mu.Unlock()
		return "", &noZipError{fmt.Sprintf("the module proxy has no %s (asked before)", key)}
	}
	for _, z := range g.zips {
		if z.key == key {
			g.mu.Unlock()
			return z.path, nil
		}
	}
	g.mu.Unlock()
	v, err, _ := g.group.Do(key, func() (any, error) { return g.download(ctx, m) })
	if err != nil {
		return "", err
	}
	path := v.(string)
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, z := range g.zips {
		if z.key == key {
			return z.path, nil
		}
	}
	g.zips = append(g.zips, cachedZip{key: key, path: path})
	if len(g.zips) > keptZips {
		_ = os.Remove(g.zips[0].path)
		g.zips = g.zips[1:]
	}
	return path, nil
}

func (g *GoProxy) download(ctx context.Context, m module.Version) (string, error) {
	escMod, err := module.EscapePath(m.Path)
	if err != nil {
		return "", refusef("module path %q: %v", m.Path, err)
	}
	escVer, err := module.EscapeVersion(m.Version)
	if err != nil {
		return "", refusef("module version %q: %v", m.Version, err)
	}
	limit := g.MaxZipBytes
	if limit <= 0 {
		limit = DefaultMaxZipBytes
	}
	u := g.base.join(append(strings.Split(escMod, "/"), "@v", escVer+".zip")...)
	body, status, err := get(ctx, g.hc, g.base, u, nil, limit)
	if err != nil {
		return "", err
	}
	switch status {
	case http.StatusOK:
	case http.StatusNotFound, http.StatusGone:
		g.mu.Lock()
		if len(g.missing) >= maxMissing {
			clear(g.missing)
		}
		if g.missing == nil {
			g.missing = map[string]bool{}
		}
		g.missing[m.Path+"@"+m.Version] = true
		g.mu.Unlock()
		return "", &noZipError{fmt.Sprintf("the module proxy has no %s@%s (HTTP %d)", m.Path, m.Version, status)}
	default:
		return "", fmt.Errorf("the module proxy answered HTTP %d for %s@%s", status, m.Path, m.Version)
	}
	f, err := os.CreateTemp("", "emberscope-module-*.zip")
	if err != nil {
		return "", err
	}
	if _, err := f.Write(body); err != nil {
		_ = f.Close()
		_ = os.Remove(f.Name())
		return "", err
	}
	if err := f.Close(); err != nil {
		_ = os.Remove(f.Name())
		return "", err
	}
	cf, err := modzip.CheckZip(m, f.Name())
	if err == nil {
		err = cf.Err()
	}
	if err != nil {
		_ = os.Remove(f.Name())
		return "", fmt.Errorf("the module proxy sent a zip of %s@%s that is not a valid module zip: %v", m.Path, m.Version, err)
	}
	return f.Name(), nil
}
