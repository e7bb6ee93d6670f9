// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package release

import (
	"bytes"
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
)

// Grafana's plugin validator (its jsMap analyzer) reads every module.js.map
// of the package against the plugin's source tree: it takes each source's
// name without the `webpack://<plugin id>/` prefix, skips webpack's runtime,
// the externals, node_modules and stylesheets, JSON and SVG files, and wants
// every other source at that path under src/ with exactly the content the map
// carries. checkSourceMap applies the same rule to every .js.map, and is
// stricter in what it names: every source must be a relative `webpack://`
// path, since anything else either fails the validator or ships the build
// machine's folders in the map.

// validatorSkips are the name prefixes (after the webpack://<id>/ prefix)
// the validator does not compare with the source tree.
var validatorSkips = []string{"external ", "webpack/", "../node_modules", "./node_modules/"}

// validatorSkipsExt are the file kinds the validator does not compare.
var validatorSkipsExt = []string{".css", ".scss", ".sass", ".less", ".svg", ".svg$", ".json"}

// absolutePathRe matches a name holding an absolute path, POSIX or Windows,
// at its start or after a webpack module type or loader prefix
// ("javascript/esm|/home/...", "loader!/home/...").
var absolutePathRe = regexp.MustCompile(`(^|[|!])(/|[A-Za-z]:[/\\]|\\\\)`)

// validatorSkipsSource says whether the validator leaves a source (its name
// without the webpack://<id>/ prefix) out of the comparison.
func validatorSkipsSource(name string) bool {
	name, _, _ = strings.Cut(name, "?")
	if strings.Contains(name, "/node_modules/.pnpm/") {
		return true
	}
	for _, ext := range validatorSkipsExt {
		if strings.HasSuffix(name, ext) {
			return true
		}
	}
	for _, prefix := range validatorSkips {
		if len(name) > len(prefix) && strings.HasPrefix(name, prefix) {
			return true
		}
	}
	return false
}

// checkSourceMap checks one source map of the package (rel, relative to the
// plugin folder) against the source tree c.e.SourceDir.
func (c *checker) checkSourceMap(rel, pluginID string) {
	b, err := os.ReadFile(filepath.Join(c.dir, filepath.FromSlash(rel)))
	if err != nil {
		c.report("jssourcemap", rel, "cannot read: %v", err)
		return
	}
	var m struct {
		Version        int       `json:"version"`
		Sources        []string  `json:"sources"`
		SourcesContent []*string `json:"sourcesContent"`
	}
	if err := json.Unmarshal(b, &m); err != nil {
		c.report("jssourcemap", rel, "invalid JSON: %v", err)
		return
	}
	if m.Version != 3 {
		c.report("jssourcemap", rel, "version %d, want 3", m.Version)
	}
	switch {
	case len(m.Sources) == 0:
		c.report("jssourcemap", rel, "no sources: Grafana's validator wants the original files' paths")
		return
	case len(m.SourcesContent) == 0:
		c.report("jssourcemap", rel, "no sourcesContent: Grafana's validator wants the original files' content")
		return
	case len(m.SourcesContent) != len(m.Sources):
		c.report("jssourcemap", rel, "%d sources but %d sourcesContent entries", len(m.Sources), len(m.SourcesContent))
		return
	}
	prefix := "webpack://" + pluginID + "/"
	own := 0
	for i, source := range m.Sources {
		name, ok := strings.CutPrefix(source, prefix)
		switch {
		case !strings.HasPrefix(source, "webpack://"):
			c.report("jssourcemap", rel, "source %q is not a webpack:// path: Grafana's validator looks it up as a file under src/", source)
			continue
		case !ok:
			c.report("jssourcemap", rel, "source %q is not under %s: Grafana's validator looks it up as a file under src/", source, prefix)
			continue
		case absolutePathRe.MatchString(name):
			c.report("jssourcemap", rel, "source %q names an absolute path: it carries the build machine's folders, and Grafana's validator does not find it under src/", source)
			continue
		case validatorSkipsSource(name):
			continue
		}
		own++
		clean := path.Clean(name)
		if clean == ".." || strings.HasPrefix(clean, "../") {
			c.report("jssourcemap", rel, "source %q lies outside src/: its path walks up the build machine's folders", source)
			continue
		}
		src, err := os.ReadFile(filepath.Join(c.e.SourceDir, filepath.FromSlash(clean)))
		switch {
		case err != nil:
			c.report("jssourcemap", rel, "source %q is not in the source tree (src/%s): %v", source, clean, err)
		case m.SourcesContent[i] == nil:
			c.report("jssourcemap", rel, "source %q has no content", source)
		case unixLines(*m.SourcesContent[i]) != unixLines(string(src)):
			c.report("jssourcemap", rel, "source %q: src/%s differs from what the map carries (rebuild the frontend)", source, clean)
		}
	}
	if own == 0 {
		c.report("jssourcemap", rel, "maps none of the plugin's own sources (%s./...)", prefix)
	}
	js := strings.TrimSuffix(rel, ".map")
	jsb, err := os.ReadFile(filepath.Join(c.dir, filepath.FromSlash(js)))
	if err != nil {
		c.report("jssourcemap", rel, "no %s beside it", js)
	} else if !bytes.Contains(jsb, []byte("sourceMappingURL="+path.Base(rel))) {
		c.report("jssourcemap", js, "does not point to its source map %s", path.Base(rel))
	}
}

// unixLines ends every line with \n alone, as the validator compares files.
func unixLines(s string) string { return strings.ReplaceAll(s, "\r\n", "\n") }
