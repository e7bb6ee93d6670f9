// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Package sourcecode finds the source file a profile's frame was compiled
// from. Providers (local source roots, the profile server's VCS service,
// GitHub, a Go module proxy) are tried in order; every path in a profile is
// untrusted, so each provider reads only below what it was configured with
// and caps what it reads.
package sourcecode

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/maypok86/otter/v2"
)

// DefaultMaxFileBytes caps one source file.
const DefaultMaxFileBytes = 4 << 20

// DefaultMaxZipBytes caps one module zip from a Go module proxy; the
// toolchain module, which holds the standard library, is the largest.
const DefaultMaxZipBytes = 512 << 20

// DefaultCacheBytes bounds the cache of files found.
const DefaultCacheBytes = 64 << 20

// Request names the file a profile recorded for a function.
type Request struct {
	// Path is the file name exactly as the profile wrote it.
	Path string
	// Function is the function whose lines are wanted.
	Function string
	// Repository, Ref and RootPath are the profile's service_repository,
	// service_git_ref and service_root_path labels ("" when absent).
	Repository string
	Ref        string
	RootPath   string
	// GoVersion is the Go release whose standard library the program was
	// built with, such as go1.22.4 ("" when unknown).
	GoVersion string
	// Platform is the <goos>-<goarch> the program was built for, such as
	// linux-arm64 ("" when unknown): the toolchain module to read first.
	Platform string
}

// File is a source file found for a request.
type File struct {
	Content []byte
	// Origin says where it came from, for the user: "local root /src",
	// "GitHub owner/repo at <ref>", "module golang.org/x/mod@v0.20.0".
	Origin string
	// Provider is the provider's short name (local, vcs, github, goproxy).
	Provider string
	// Link is the file in its repository at the profiled commit, when
	// known; a line is linked by appending "#L<line>".
	Link string
	// GoVersion is the Go release shown, for the standard library.
	GoVersion string
}

// Provider finds source files in one place.
type Provider interface {
	// Name says where the provider looks, for messages: "local roots
	// /a, /b", "GitHub API at https://...".
	Name() string
	// Find returns the file, ErrNotFound wrapped with a reason when the
	// file is not there, or another error (a refusal, a failed call).
	Find(ctx context.Context, r Request) (*File, error)
}

// ErrNotFound marks a provider that does not have the file.
var ErrNotFound = errors.New("not found")

// Refusal is an error about an untrusted path or answer that was not followed.
type Refusal struct{ Msg string }

func (e *Refusal) Error() string { return "refused: " + e.Msg }

func refusef(format string, args ...any) error {
	return &Refusal{Msg: fmt.Sprintf(format, args...)}
}

func notFoundf(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrNotFound, fmt.Sprintf(format, args...))
}

// Attempt is what one provider answered.
type Attempt struct {
	Provider string `json:"provider"`
	Message  string `json:"message"`
}

// Finder tries providers in order and caches what they found.
type Finder struct {
	providers []Provider
	cache     *otter.Cache[string, *File]
}

// NewFinder returns a finder over providers, caching at most cacheBytes of
// files (DefaultCacheBytes when 0).
func NewFinder(cacheBytes int, providers ...Provider) *Finder {
	if cacheBytes <= 0 {
		cacheBytes = DefaultCacheBytes
	}
	return &Finder{
		providers: providers,
		cache: otter.Must(&otter.Options[string, *File]{
			MaximumWeight: uint64(cacheBytes),
			Weigher:       func(_ string, f *File) uint32 { return uint32(min(len(f.Content)+256, 1<<31)) },
		}),
	}
}

// Providers tells whether any provider is configured.
func (f *Finder) Providers() int { return len(f.providers) }

// Find asks each provider in turn. Without a file, it returns what every
// provider answered, so that the user sees each place that was looked at.
func (f *Finder) Find(ctx context.Context, r Request) (*File, []Attempt) {
	key := strings.Join([]string{r.Path, r.Repository, r.Ref, r.RootPath, r.GoVersion, r.Platform}, "\x00")
	if file, ok := f.cache.GetIfPresent(key); ok {
		return file, nil
	}
	var tried []Attempt
	for _, p := range f.providers {
		file, err := p.Find(ctx, r)
		if err == nil {
			f.cache.Set(key, file)
			return file, nil
		}
		tried = append(tried, Attempt{Provider: p.Name(), Message: err.Error()})
	}
	if len(tried) == 0 {
		tried = append(tried, Attempt{Provider: "settings", Message: "no source provider is configured: add local source roots, GitHub or a Go module proxy in the datasource's settings"})
	}
	return nil, tried
}

// cleanRelative checks a slash-separated relative path taken from a
// profile: no "..", no absolute path, no empty or NUL element.
func cleanRelative(p string) (string, error) {
	if p == "" {
		return "", refusef("empty path")
	}
	if strings.ContainsRune(p, 0) {
		return "", refusef("path %q holds a NUL byte", p)
	}
	if strings.HasPrefix(p, "/") || strings.Contains(p, "\\") || (len(p) > 1 && p[1] == ':') {
		return "", refusef("path %q is absolute", p)
	}
	for _, e := range strings.Split(p, "/") {
		if e == ".." {
			return "", refusef("path %q climbs out with ..", p)
		}
		if e == "" || e == "." {
			return "", refusef("path %q has an empty or . element", p)
		}
	}
	return p, nil
}
