// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package release

import (
	"debug/buildinfo"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/mod/modfile"
)

// checkBuildInfo reads the Go build information of an executable (rel, in
// the plugin folder) as Grafana's validator does: it must be there, name
// the plugin it belongs to and the package's version, come from a clean
// tree without cgo, and every module in it must be in go.mod at that version.
func (c *checker) checkBuildInfo(rel string, pj *pluginJSON) {
	info, err := buildinfo.ReadFile(filepath.Join(c.dir, filepath.FromSlash(rel)))
	if err != nil {
		c.report("gobuildinfo", rel, "no Go build information: %v", err)
		return
	}
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.modified":
			if s.Value == "true" {
				c.warn("gobuildinfo", rel, "built from a working tree with uncommitted changes (Grafana's validator refuses that for signing)")
			}
		case "CGO_ENABLED":
			if s.Value == "1" {
				c.warn("gobuildinfo", rel, "built with CGO_ENABLED=1")
			}
		case "-ldflags":
			if id, ok := ldflagValue(s.Value, "main.pluginID="); ok && id != pj.ID {
				c.report("gobuildinfo", rel, "main.pluginID %q differs from its plugin.json id %q", id, pj.ID)
			}
			if raw, ok := ldflagValue(s.Value, "github.com/grafana/grafana-plugin-sdk-go/build/buildinfo.buildInfoJSON="); ok {
				var bi struct{ PluginID, Version string }
				if json.Unmarshal([]byte(raw), &bi) == nil {
					if bi.PluginID != "" && bi.PluginID != pj.ID {
						c.report("gobuildinfo", rel, "build info plugin id %q differs from its plugin.json id %q", bi.PluginID, pj.ID)
					}
					if bi.Version != "" && bi.Version != pj.Info.Version {
						c.report("gobuildinfo", rel, "build info version %q differs from plugin.json version %q (rebuild the backend)", bi.Version, pj.Info.Version)
					}
				}
			}
		}
	}
	if c.e.GoMod == "" {
		return
	}
	b, err := os.ReadFile(c.e.GoMod)
	if err != nil {
		c.report("gobuildinfo", rel, "cannot read go.mod: %v", err)
		return
	}
	mf, err := modfile.ParseLax(c.e.GoMod, b, nil)
	if err != nil {
		c.report("gobuildinfo", rel, "cannot parse go.mod: %v", err)
		return
	}
	required := map[string]string{}
	for _, r := range mf.Require {
		required[r.Mod.Path] = r.Mod.Version
	}
	for _, dep := range info.Deps {
		if dep.Replace != nil {
			dep = dep.Replace
		}
		v, ok := required[dep.Path]
		switch {
		case !ok:
			c.report("gobuildinfo", rel, "module %s@%s is compiled in but not required in go.mod", dep.Path, dep.Version)
		case v != dep.Version:
			c.report("gobuildinfo", rel, "module %s is compiled in at %s but go.mod requires %s", dep.Path, dep.Version, v)
		}
	}
}

// ldflagValue finds name=value in a -ldflags string (values may be quoted
// with single quotes, as the SDK's build writes them).
func ldflagValue(ldflags, name string) (string, bool) {
	_, after, ok := strings.Cut(ldflags, name)
	if !ok {
		return "", false
	}
	if strings.HasPrefix(after, "'") {
		after = after[1:]
		if end := strings.IndexByte(after, '\''); end >= 0 {
			return after[:end], true
		}
		return after, true
	}
	if end := strings.IndexAny(after, "' \t"); end >= 0 {
		after = after[:end]
	}
	return after, true
}
