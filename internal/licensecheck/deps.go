// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package licensecheck

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/google/licensecheck"
)

// Dependency is one third-party module or package and its licenses.
type Dependency struct {
	// Ecosystem is "go" or "npm".
	Ecosystem string
	Name      string
	Version   string
	// Licenses are SPDX identifiers (or an SPDX expression for npm);
	// empty when none was found.
	Licenses []string
	// Runtime is true for what ships: linked into our binaries or bundled
	// into (or loaded beside) the frontend. False for development tools.
	Runtime bool
	// Bundled is true for npm packages whose code is in the built frontend
	// (found in dist's source maps); runtime packages that are not are
	// provided by Grafana (webpack externals) or unused.
	Bundled bool
	// Where the license was read from (a license file, package-lock.json).
	Source string
}

// GoOptions say which packages of a Go module are the product and which
// only build or test it.
type GoOptions struct {
	// Runtime package patterns: what our binaries link.
	Runtime []string
	// Dev package patterns, walked with their tests (the tool meta-package
	// "tool" lists go.mod's tools).
	Dev []string
}

// DefaultGo fits this repository.
var DefaultGo = GoOptions{
	Runtime: []string{"./pkg/...", "./cmd/..."},
	Dev:     []string{"./pkg/...", "./cmd/...", "./internal/...", "tool"},
}

// GoDependencies lists the modules the Go packages of root import, with
// the licenses found in each module's license files.
func GoDependencies(ctx context.Context, root string, o GoOptions) ([]Dependency, error) {
	runtime, err := goModules(ctx, root, false, o.Runtime)
	if err != nil {
		return nil, err
	}
	all := map[string]goModule{}
	for k, m := range runtime {
		all[k] = m
	}
	if len(o.Dev) > 0 {
		dev, err := goModules(ctx, root, true, o.Dev)
		if err != nil {
			return nil, err
		}
		for k, m := range dev {
			if _, ok := all[k]; !ok {
				all[k] = m
			}
		}
	}
	absRoot, _ := filepath.Abs(root)
	var deps []Dependency
	for key, m := range all {
		if m.Main || (m.Dir != "" && isWithin(m.Dir, absRoot)) {
			continue // our own modules (x/k6 too), under the repository's LICENSE
		}
		ids, source := goLicenses(m.Dir)
		_, rt := runtime[key]
		deps = append(deps, Dependency{Ecosystem: "go", Name: m.Path, Version: m.Version, Licenses: ids, Runtime: rt, Source: source})
	}
	sortDeps(deps)
	return deps, nil
}

type goModule struct {
	Path, Version, Dir string
	Main               bool
}

func goModules(ctx context.Context, root string, withTests bool, patterns []string) (map[string]goModule, error) {
	args := []string{"list", "-deps", "-e"}
	if withTests {
		args = append(args, "-test")
	}
	args = append(args, "-f", `{{with .Module}}{{.Path}}	{{.Version}}	{{.Main}}	{{with .Replace}}{{.Dir}}{{else}}{{.Dir}}{{end}}{{end}}`)
	args = append(args, patterns...)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go %s: %w: %s", strings.Join(args, " "), err, stderr.String())
	}
	mods := map[string]goModule{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		if len(f) != 4 || f[0] == "" {
			continue
		}
		mods[f[0]+"@"+f[1]] = goModule{Path: f[0], Version: f[1], Main: f[2] == "true", Dir: f[3]}
	}
	return mods, nil
}

var licenseFileRe = regexp.MustCompile(`(?i)^(licen[cs]e|copying|unlicense)([-._].*)?$`)

// goLicenses classifies the license files at the top of a module with
// google/licensecheck (the classifier pkg.go.dev uses).
func goLicenses(dir string) ([]string, string) {
	if dir == "" {
		return nil, ""
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, ""
	}
	seen := map[string]bool{}
	var ids, sources []string
	for _, e := range entries {
		if e.IsDir() || !licenseFileRe.MatchString(e.Name()) {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			continue
		}
		sources = append(sources, e.Name())
		for _, id := range classify(b) {
			if !seen[id] {
				seen[id] = true
				ids = append(ids, id)
			}
		}
	}
	sort.Strings(ids)
	return ids, strings.Join(sources, ", ")
}

// classify names the licenses a text holds: the matches covering a
// meaningful part of it.
func classify(text []byte) []string {
	cov := licensecheck.Scan(text)
	var ids []string
	seen := map[string]bool{}
	for _, m := range cov.Match {
		if !seen[m.ID] {
			seen[m.ID] = true
			ids = append(ids, m.ID)
		}
	}
	if cov.Percent < 50 && len(ids) == 0 {
		return nil
	}
	return ids
}

// NPMDependencies lists the packages of package-lock.json with their
// licenses: runtime for what the production dependencies pull in,
// development for the rest (npm marks those "dev").
func NPMDependencies(root string) ([]Dependency, error) {
	b, err := os.ReadFile(filepath.Join(root, "package-lock.json"))
	if err != nil {
		return nil, err
	}
	var lock struct {
		LockfileVersion int `json:"lockfileVersion"`
		Packages        map[string]struct {
			Version     string          `json:"version"`
			License     json.RawMessage `json:"license"`
			Dev         bool            `json:"dev"`
			DevOptional bool            `json:"devOptional"`
			Link        bool            `json:"link"`
		} `json:"packages"`
	}
	if err := json.Unmarshal(b, &lock); err != nil {
		return nil, fmt.Errorf("package-lock.json: %w", err)
	}
	if lock.LockfileVersion < 2 {
		return nil, fmt.Errorf("package-lock.json: lockfileVersion %d has no package list; npm 7 or later writes version 2 or 3", lock.LockfileVersion)
	}
	var deps []Dependency
	for key, p := range lock.Packages {
		if key == "" || p.Link {
			continue
		}
		i := strings.LastIndex(key, "node_modules/")
		if i < 0 {
			continue // a workspace folder of ours
		}
		name := key[i+len("node_modules/"):]
		license := npmLicense(p.License)
		source := "package-lock.json"
		if license == "" {
			// Old lock entries lack the field; the installed package.json has it.
			license = installedLicense(filepath.Join(root, filepath.FromSlash(key), "package.json"))
			source = key + "/package.json"
		}
		var ids []string
		if license != "" {
			ids = []string{license}
		} else {
			// No license field at all: classify the package's license
			// files, then its README's license section.
			dir := filepath.Join(root, filepath.FromSlash(key))
			ids, source = goLicenses(dir)
			if len(ids) == 0 {
				ids, source = readmeLicense(dir)
			}
		}
		deps = append(deps, Dependency{Ecosystem: "npm", Name: name, Version: p.Version, Licenses: ids, Runtime: !p.Dev && !p.DevOptional, Source: source})
	}
	sortDeps(deps)
	deps = dedupe(deps)
	if bundled := bundledPackages(filepath.Join(root, "dist")); bundled != nil {
		for i := range deps {
			deps[i].Bundled = bundled[deps[i].Name]
		}
	}
	return deps, nil
}

// npmLicense reads package.json's license field: a string, or the old
// {"type": ...} object or array of them.
func npmLicense(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var obj struct{ Type string }
	if json.Unmarshal(raw, &obj) == nil && obj.Type != "" {
		return obj.Type
	}
	var arr []struct{ Type string }
	if json.Unmarshal(raw, &arr) == nil && len(arr) > 0 {
		types := make([]string, len(arr))
		for i, a := range arr {
			types[i] = a.Type
		}
		return "(" + strings.Join(types, " OR ") + ")"
	}
	return ""
}

func installedLicense(pkgJSON string) string {
	b, err := os.ReadFile(pkgJSON)
	if err != nil {
		return ""
	}
	var p struct {
		License  json.RawMessage `json:"license"`
		Licenses json.RawMessage `json:"licenses"`
	}
	if json.Unmarshal(b, &p) != nil {
		return ""
	}
	if l := npmLicense(p.License); l != "" {
		return l
	}
	return npmLicense(p.Licenses)
}

var licenseHeadingRe = regexp.MustCompile(`(?im)^(#+\s*licen[cs]e\s*$|licen[cs]e\s*\n[-=]+\s*$)`)

// readmeLicense classifies the license section of a package's README.
func readmeLicense(dir string) ([]string, string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, ""
	}
	for _, e := range entries {
		if e.IsDir() || !strings.HasPrefix(strings.ToLower(e.Name()), "readme") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			continue
		}
		loc := licenseHeadingRe.FindIndex(b)
		if loc == nil {
			continue
		}
		if ids := classify(b[loc[1]:]); len(ids) > 0 {
			return ids, e.Name() + " (license section)"
		}
	}
	return nil, ""
}

var bundledRe = regexp.MustCompile(`node_modules/((?:@[^/]+/)?[^/]+)/`)

// bundledPackages names the npm packages whose files the source maps under
// dist list; nil when there is no built frontend.
func bundledPackages(dist string) map[string]bool {
	maps, _ := filepath.Glob(filepath.Join(dist, "*.js.map"))
	more, _ := filepath.Glob(filepath.Join(dist, "*", "*.js.map"))
	maps = append(maps, more...)
	if len(maps) == 0 {
		return nil
	}
	names := map[string]bool{}
	for _, m := range maps {
		b, err := os.ReadFile(m)
		if err != nil {
			continue
		}
		var sm struct{ Sources []string }
		if json.Unmarshal(b, &sm) != nil {
			continue
		}
		for _, s := range sm.Sources {
			for _, match := range bundledRe.FindAllStringSubmatch(s, -1) {
				names[match[1]] = true
			}
		}
	}
	return names
}

func sortDeps(deps []Dependency) {
	sort.Slice(deps, func(i, j int) bool {
		if deps[i].Name != deps[j].Name {
			return deps[i].Name < deps[j].Name
		}
		return deps[i].Version < deps[j].Version
	})
}

// dedupe folds copies of one package version installed at several places
// (runtime when any copy is).
func dedupe(deps []Dependency) []Dependency {
	out := deps[:0]
	for _, d := range deps {
		if n := len(out); n > 0 && out[n-1].Name == d.Name && out[n-1].Version == d.Version {
			out[n-1].Runtime = out[n-1].Runtime || d.Runtime
			continue
		}
		out = append(out, d)
	}
	return out
}

func isWithin(dir, root string) bool {
	rel, err := filepath.Rel(root, dir)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
