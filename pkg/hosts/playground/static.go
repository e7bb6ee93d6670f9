// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package playground

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"net/http"
	"path"
	"regexp"
	"strings"
	"sync"

	"github.com/emberscope/emberscope/pkg/hosts/playground/page"
)

// staticHandler serves the built playground page from fsys. A path without a
// file behind it gets index.html (the page routes itself); a missing file
// with an extension is a 404. When fsys holds no index.html (a binary built
// before the page), every page path gets the placeholder saying how to build
// it, with 503. Caching headers (cacheFor) let a browser load the page's
// scripts once and reuse them, compiled, on every reload.
func staticHandler(fsys fs.FS) http.Handler {
	files := http.FileServerFS(fsys)
	tags := &etags{fsys: fsys}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			writeMessage(w, http.StatusMethodNotAllowed, r.Method+" is not allowed here")
			return
		}
		clean := path.Clean("/" + r.URL.Path)
		name := strings.TrimPrefix(clean, "/")
		if !page.Built(fsys) {
			if path.Ext(clean) != "" {
				http.NotFound(w, r)
				return
			}
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = w.Write(page.Placeholder())
			return
		}
		if clean != "/" {
			if _, err := fs.Stat(fsys, name); err != nil {
				if path.Ext(clean) != "" {
					http.NotFound(w, r)
					return
				}
				tags.cacheFor(w, "index.html")
				http.ServeFileFS(w, r, fsys, "index.html")
				return
			}
		}
		if name == "" {
			name = "index.html"
		}
		tags.cacheFor(w, name)
		files.ServeHTTP(w, r)
	})
}

// hashedScript matches the scripts webpack names after their content
// ("[name].[contenthash:8].js" in webpack.playground.config.ts): the bytes
// under such a name never change.
var hashedScript = regexp.MustCompile(`\.[0-9a-f]{8}\.js$`)

// etags hands out the entity tags of the files of an embedded page, whose
// files carry no modification time (so no Last-Modified to revalidate by).
type etags struct {
	fsys fs.FS
	mu   sync.Mutex
	tags map[string]string
}

// cacheFor sets the caching headers of file name: a content-named script is
// kept for a year without asking again; anything else (index.html, which
// names the current scripts; the worker's fixed-name script; fonts and
// icons) is asked for again each time, answered 304 Not Modified when it has
// not changed (by Last-Modified from a directory, by ETag when embedded).
func (e *etags) cacheFor(w http.ResponseWriter, name string) {
	if hashedScript.MatchString(name) {
		w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
		return
	}
	w.Header().Set("Cache-Control", "no-cache")
	if tag := e.of(name); tag != "" {
		w.Header().Set("ETag", tag)
	}
}

// of returns the entity tag of an embedded file (a hash of its bytes, which
// are fixed for the life of the binary), or "" for a file with a modification
// time (a directory's file can change while served) or that cannot be read.
func (e *etags) of(name string) string {
	info, err := fs.Stat(e.fsys, name)
	if err != nil || info.IsDir() || !info.ModTime().IsZero() {
		return ""
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if tag, ok := e.tags[name]; ok {
		return tag
	}
	raw, err := fs.ReadFile(e.fsys, name)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(raw)
	tag := `"` + hex.EncodeToString(sum[:12]) + `"`
	if e.tags == nil {
		e.tags = map[string]string{}
	}
	e.tags[name] = tag
	return tag
}
