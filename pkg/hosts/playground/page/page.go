// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Package page holds the playground page in the binary: `npm run
// build:playground` builds src/playground into built/ here, and go:embed puts
// whatever built/ holds at `go build` time into the binary, so `emberscope
// playground` serves the page from any directory. In a clean clone built/
// holds only .gitkeep: the binary builds and serves placeholder.html, which
// says how to build the real page.
package page

import (
	"embed"
	"io/fs"
)

// BuildCommand builds the page into built/ (then rebuild the binary).
const BuildCommand = "npm run build:playground"

//go:embed all:built
var built embed.FS

//go:embed placeholder.html
var placeholder []byte

// FS is the built page: index.html, its scripts and Grafana's public/
// fonts and icons. It has no index.html when the page was not built.
func FS() fs.FS {
	sub, err := fs.Sub(built, "built")
	if err != nil {
		panic(err) // "built" is a valid path: cannot happen
	}
	return sub
}

// Built reports whether fsys holds a built page (an index.html).
func Built(fsys fs.FS) bool {
	_, err := fs.Stat(fsys, "index.html")
	return err == nil
}

// Placeholder is the page served when the page was not built.
func Placeholder() []byte { return placeholder }
