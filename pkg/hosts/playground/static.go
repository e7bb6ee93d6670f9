// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package playground

import (
	"io/fs"
	"net/http"
	"path"
	"strings"

	"github.com/emberscope/emberscope/pkg/hosts/playground/page"
)

// staticHandler serves the built playground page from fsys. A path without a
// file behind it gets index.html (the page routes itself); a missing file
// with an extension is a 404. When fsys holds no index.html (a binary built
// before the page), every page path gets the placeholder saying how to build
// it, with 503.
func staticHandler(fsys fs.FS) http.Handler {
	files := http.FileServerFS(fsys)
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
				http.ServeFileFS(w, r, fsys, "index.html")
				return
			}
		}
		files.ServeHTTP(w, r)
	})
}
