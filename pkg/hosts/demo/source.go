// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package demo

import (
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
)

// Labels the source view reads (Grafana's Profiles Drilldown reads them too).
const (
	labelRepository = "service_repository"
	labelGitRef     = "service_git_ref"
	labelRootPath   = "service_root_path"
)

// SourceRoot is the folder the demo's module was built from, so that the
// source view finds the demo's own code; "" when this binary was built
// elsewhere or with -trimpath.
func SourceRoot() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok || !filepath.IsAbs(file) {
		return ""
	}
	root, found := strings.CutSuffix(filepath.ToSlash(file), "/pkg/hosts/demo/source.go")
	if !found {
		return ""
	}
	if st, err := os.Stat(filepath.FromSlash(root)); err != nil || !st.IsDir() {
		return ""
	}
	return filepath.FromSlash(root)
}

// sourceLabels are the service's repository, commit and build folder as
// the Go toolchain stamped them into the binary; a label is left out when
// the build does not say.
func sourceLabels() map[string]string {
	out := map[string]string{}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return out
	}
	if mod := info.Main.Path; strings.HasPrefix(mod, "github.com/") && strings.Count(mod, "/") == 2 {
		out[labelRepository] = "https://" + mod
	}
	for _, s := range info.Settings {
		if s.Key == "vcs.revision" && s.Value != "" {
			out[labelGitRef] = s.Value
		}
	}
	if root := SourceRoot(); root != "" {
		out[labelRootPath] = filepath.ToSlash(root)
	}
	return out
}
