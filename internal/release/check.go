// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package release

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// Problem is one rule of Grafana's plugin validator that a package breaks.
type Problem struct {
	// Rule names the validator's analyzer (includesnested, changelog, ...).
	Rule string
	// File is the file at fault, relative to the plugin folder.
	File    string
	Message string
	// Warning marks what Grafana's validator reports as a warning; the
	// rest are errors, which fail the package.
	Warning bool
}

func (p Problem) String() string { return fmt.Sprintf("%s: %s: %s", p.Rule, p.File, p.Message) }

// Errors returns the problems that are not warnings.
func Errors(problems []Problem) []Problem {
	var errs []Problem
	for _, p := range problems {
		if !p.Warning {
			errs = append(errs, p)
		}
	}
	return errs
}

// ProblemsError carries every problem a check found.
type ProblemsError struct{ Problems []Problem }

func (e *ProblemsError) Error() string {
	lines := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		lines[i] = "  " + p.String()
	}
	return fmt.Sprintf("release: the package breaks %d rule(s) of Grafana's plugin validator:\n%s", len(e.Problems), strings.Join(lines, "\n"))
}

// Expect is what the package must match beyond its own files.
type Expect struct {
	// PluginID is the app's id (the archive's folder name); empty skips the check.
	PluginID string
	// Version is package.json's version; empty skips the check.
	Version string
	// SourceDir is the frontend's source (src/) that source maps must match;
	// empty skips the source map check.
	SourceDir string
	// GoMod is the go.mod the executables were built from: every module
	// compiled into them must be required there at the same version. Empty
	// skips the check.
	GoMod string
	// Platforms each executable must be present for; nil means Platforms.
	Platforms []Platform
}

// pluginJSON holds the fields of plugin.json the checks read.
type pluginJSON struct {
	ID         string `json:"id"`
	Type       string `json:"type"`
	Name       string `json:"name"`
	Backend    bool   `json:"backend"`
	Executable string `json:"executable"`
	Info       struct {
		Description string `json:"description"`
		Version     string `json:"version"`
		Updated     string `json:"updated"`
		Author      struct {
			Name string `json:"name"`
		} `json:"author"`
		Logos struct {
			Small string `json:"small"`
			Large string `json:"large"`
		} `json:"logos"`
		Screenshots []struct {
			Name string `json:"name"`
			Path string `json:"path"`
		} `json:"screenshots"`
	} `json:"info"`
	Includes []struct {
		Type string `json:"type"`
		Name string `json:"name"`
		Path string `json:"path"`
	} `json:"includes"`
	Dependencies struct {
		GrafanaDependency string `json:"grafanaDependency"`
	} `json:"dependencies"`
}

func readPluginJSON(name string) (*pluginJSON, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	var pj pluginJSON
	if err := json.Unmarshal(b, &pj); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &pj, nil
}

var (
	semverRe     = regexp.MustCompile(`^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$`)
	dependencyRe = regexp.MustCompile(`^(>=|>|=|~|\^)?\s*\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\s*<=?\s*\d+\.\d+\.\d+)?$`)
	dateRe       = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
	mdLinkRe     = regexp.MustCompile(`!?\[[^\]]*\]\(([^)\s]*)(?:\s+"[^"]*")?\)`)
	// Words that mark a README written for developers rather than for the
	// people who install the plugin.
	jargon = []string{"yarn", "nodejs", "npm ", "npm\n", "webpack", "go tool mage", "mage ", "git clone", "scripts/", "node_modules", "go build", "go run"}
	// The scaffold's README title.
	templateReadmeRe = regexp.MustCompile(`(?m)^# Grafana (Panel|Data Source|Data Source Backend|App) Plugin Template`)
)

var typeSuffix = map[string]string{"app": "-app", "datasource": "-datasource", "panel": "-panel"}

// CheckDir checks an unpacked plugin folder against the rules of Grafana's
// plugin validator that a package build can break. It returns nil when the
// folder passes.
func CheckDir(dir string, e Expect) []Problem {
	c := &checker{dir: dir, e: e}
	if c.e.Platforms == nil {
		c.e.Platforms = Platforms
	}
	c.run()
	sort.SliceStable(c.problems, func(i, j int) bool { return c.problems[i].File < c.problems[j].File })
	return c.problems
}

type checker struct {
	dir      string
	e        Expect
	problems []Problem
}

func (c *checker) report(rule, file, format string, args ...any) {
	c.problems = append(c.problems, Problem{Rule: rule, File: filepath.ToSlash(file), Message: fmt.Sprintf(format, args...)})
}

func (c *checker) warn(rule, file, format string, args ...any) {
	c.report(rule, file, format, args...)
	c.problems[len(c.problems)-1].Warning = true
}

func (c *checker) exists(rel string) bool {
	st, err := os.Stat(filepath.Join(c.dir, filepath.FromSlash(rel)))
	return err == nil && st.Mode().IsRegular()
}

func (c *checker) run() {
	root, err := readPluginJSON(filepath.Join(c.dir, "plugin.json"))
	if err != nil {
		c.report("metadata", "plugin.json", "missing or invalid: %v", err)
		return
	}
	if c.e.PluginID != "" && root.ID != c.e.PluginID {
		c.report("archive", "plugin.json", "id %q differs from the archive's folder %q", root.ID, c.e.PluginID)
	}
	if c.e.Version != "" && root.Info.Version != c.e.Version {
		c.report("packagejson", "plugin.json", "info.version %q differs from package.json's version %q", root.Info.Version, c.e.Version)
	}

	nested := map[string]*pluginJSON{}
	var files []string
	_ = filepath.WalkDir(c.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			c.report("archive", p, "cannot read: %v", err)
			return nil
		}
		if d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(c.dir, p)
		rel = filepath.ToSlash(rel)
		files = append(files, rel)
		if d.Name() == "plugin.json" && rel != "plugin.json" {
			pj, err := readPluginJSON(p)
			if err != nil {
				c.report("nestedmetadata", rel, "invalid: %v", err)
				return nil
			}
			nested[rel] = pj
		}
		return nil
	})

	c.checkMetadata("plugin.json", root, root)
	for rel, pj := range nested {
		c.checkMetadata(rel, pj, root)
	}
	c.checkIncludes(root, nested)
	c.checkExecutables("plugin.json", root)
	for rel, pj := range nested {
		c.checkExecutables(rel, pj)
	}
	for _, required := range []string{"CHANGELOG.md", "LICENSE", "README.md"} {
		if !c.exists(required) {
			c.report(strings.ToLower(strings.TrimSuffix(required, ".md")), required, "missing: Grafana's validator wants %s at the root of the plugin folder", required)
		}
	}
	if c.exists("README.md") {
		c.checkReadme("README.md")
	}
	// Grafana's plugin page shows the README.md beside each plugin.json; a nested plugin
	// without one says "No plugin help or readme markdown file was found".
	for rel := range nested {
		readme := path.Join(path.Dir(rel), "README.md")
		if !c.exists(readme) {
			c.report("nestedreadme", readme, "missing: Grafana's page of the nested plugin %s shows its README.md, and says there is none", rel)
			continue
		}
		c.checkReadme(readme)
	}
	for _, f := range files {
		switch {
		case strings.HasSuffix(f, ".svg"):
			c.checkSVG(f)
		case strings.HasSuffix(f, ".js.map") && c.e.SourceDir != "":
			c.checkSourceMap(f, root.ID)
		case path.Base(f) == "module.js" && c.e.SourceDir != "" && !c.exists(f+".map"):
			c.report("jssourcemap", f+".map", "missing: Grafana's validator wants the source map beside every module.js")
		}
	}
}

// checkMetadata applies the metadata rules to one plugin.json (rel is its
// path in the plugin folder).
func (c *checker) checkMetadata(rel string, pj, root *pluginJSON) {
	raw, _ := os.ReadFile(filepath.Join(c.dir, filepath.FromSlash(rel)))
	for _, placeholder := range []string{"%VERSION%", "%TODAY%", "%PLUGIN_ID%"} {
		if bytes.Contains(raw, []byte(placeholder)) {
			c.report("metadatavalid", rel, "still holds the build placeholder %s", placeholder)
		}
	}
	switch {
	case pj.ID == "":
		c.report("metadatavalid", rel, "no id")
	case pj.Type == "":
		c.report("metadatavalid", rel, "no type")
	case typeSuffix[pj.Type] == "":
		c.report("metadatavalid", rel, "type %q is not app, datasource or panel", pj.Type)
	case !strings.HasSuffix(pj.ID, typeSuffix[pj.Type]):
		c.report("typesuffix", rel, "id %q of a %s plugin must end in %q", pj.ID, pj.Type, typeSuffix[pj.Type])
	}
	if pj.Name == "" {
		c.report("metadatavalid", rel, "no name")
	} else if pj.Name == pj.ID {
		c.report("pluginname", rel, "plugin name should be human-friendly, not the id")
	}
	if pj.Info.Author.Name == "" {
		c.report("metadatavalid", rel, "no info.author.name")
	}
	if pj.Info.Description == "" {
		c.report("metadatavalid", rel, "no info.description")
	}
	if !semverRe.MatchString(pj.Info.Version) {
		c.report("version", rel, "info.version %q is not a semantic version", pj.Info.Version)
	} else if pj != root && pj.Info.Version != root.Info.Version {
		c.report("nestedmetadata", rel, "info.version %q differs from the app's %q", pj.Info.Version, root.Info.Version)
	}
	if !dateRe.MatchString(pj.Info.Updated) {
		c.report("metadatavalid", rel, "info.updated %q is not a date (YYYY-MM-DD)", pj.Info.Updated)
	}
	if pj.Dependencies.GrafanaDependency == "" {
		c.report("grafanadependency", rel, "no dependencies.grafanaDependency")
	} else if !dependencyRe.MatchString(pj.Dependencies.GrafanaDependency) {
		c.report("grafanadependency", rel, "dependencies.grafanaDependency %q is not a version range such as \">=12.3.0\"", pj.Dependencies.GrafanaDependency)
	}
	base := path.Dir(rel)
	c.checkAsset(rel, base, "logos.small", pj.Info.Logos.Small, true)
	c.checkAsset(rel, base, "logos.large", pj.Info.Logos.Large, true)
	for i, s := range pj.Info.Screenshots {
		c.checkAsset(rel, base, fmt.Sprintf("screenshots[%d]", i), s.Path, true)
	}
	if !c.exists(path.Join(base, "module.js")) {
		c.report("modulejs", rel, "no module.js beside it")
	} else if js, err := os.ReadFile(filepath.Join(c.dir, filepath.FromSlash(path.Join(base, "module.js")))); err == nil {
		for _, legacy := range []string{`"app/plugins/sdk"`, `'app/plugins/sdk'`, `"grafana/app/`, `'grafana/app/`} {
			if bytes.Contains(js, []byte(legacy)) {
				c.report("legacyplatform", path.Join(base, "module.js"), "imports Grafana's legacy platform (%s); use @grafana/data, @grafana/ui and @grafana/runtime", legacy)
			}
		}
	}
}

// checkAsset checks a path plugin.json names: relative, not starting with
// "." or "/", and present in the folder.
func (c *checker) checkAsset(rel, base, field, p string, required bool) {
	if p == "" {
		if required {
			c.report("logos", rel, "%s is empty", field)
		}
		return
	}
	u, err := url.Parse(p)
	switch {
	case err != nil:
		c.report("metadatapaths", rel, "%s: invalid path %q", field, p)
	case u.IsAbs():
		c.report("metadatapaths", rel, "%s: path should be relative to plugin.json: %s", field, p)
	case strings.HasPrefix(p, ".") || strings.HasPrefix(p, "/"):
		c.report("metadatapaths", rel, "%s: relative path should not start with '.' or '/': %s", field, p)
	case !c.exists(path.Join(base, p)):
		rule := "logos"
		if strings.HasPrefix(field, "screenshots") {
			rule = "screenshots"
		}
		c.report(rule, rel, "%s: %s is not in the package", field, path.Join(base, p))
	}
}

// checkIncludes: every nested plugin.json must be declared in the app's
// includes with its path and type, and every declared path must exist.
func (c *checker) checkIncludes(root *pluginJSON, nested map[string]*pluginJSON) {
	for rel, pj := range nested {
		found := false
		for _, inc := range root.Includes {
			if inc.Path != rel {
				continue
			}
			found = true
			switch {
			case inc.Type == "":
				c.report("includesnested", "plugin.json", "Nested plugin %s is missing type", rel)
			case inc.Type != pj.Type:
				c.report("includesnested", "plugin.json", "Nested plugin %s is declared as %s but is a %s", rel, inc.Type, pj.Type)
			}
		}
		if !found {
			c.report("includesnested", "plugin.json", "Nested plugin %s is not declared in the app's includes (add {\"type\": %q, \"path\": %q})", rel, pj.Type, rel)
		}
	}
	for _, inc := range root.Includes {
		if inc.Path != "" && strings.HasSuffix(inc.Path, "plugin.json") && nested[inc.Path] == nil {
			c.report("includesnested", "plugin.json", "includes names %s, which is not in the package", inc.Path)
		}
	}
}

// checkExecutables: a backend plugin names its executable, and a file
// <executable>_<os>_<arch> with permissions exactly 0755 exists per platform.
func (c *checker) checkExecutables(rel string, pj *pluginJSON) {
	if pj.Backend && pj.Executable == "" {
		c.report("backendbinary", rel, "backend is true but no executable is named")
		return
	}
	if pj.Executable == "" {
		return
	}
	base := path.Dir(rel)
	for _, p := range c.e.Platforms {
		exe := path.Join(base, path.Dir(pj.Executable), ExecutableName(path.Base(pj.Executable), p))
		st, err := os.Stat(filepath.Join(c.dir, filepath.FromSlash(exe)))
		switch {
		case err != nil:
			c.report("backendbinary", rel, "no executable %s for %s", exe, p)
		case !st.Mode().IsRegular():
			c.report("backendbinary", exe, "not a regular file")
		case p.OS != "windows" && st.Mode().Perm() != 0o755:
			c.report("binarypermissions", exe, "permissions %04o, must be exactly 0755", st.Mode().Perm())
			c.checkBuildInfo(exe, pj)
		default:
			c.checkBuildInfo(exe, pj)
		}
	}
}

func (c *checker) checkReadme(rel string) {
	b, _ := os.ReadFile(filepath.Join(c.dir, rel))
	text := string(b)
	lower := strings.ToLower(text)
	var found []string
	for _, word := range jargon {
		if strings.Contains(lower, word) {
			found = append(found, strings.TrimSpace(word))
		}
	}
	if len(found) > 0 {
		c.report("jargon", rel, "developer jargon (%s): the packaged README is for people installing the plugin", strings.Join(found, ", "))
	}
	if templateReadmeRe.MatchString(text) {
		c.report("templatereadme", rel, "is the plugin template's README")
	}
	for _, m := range mdLinkRe.FindAllStringSubmatch(text, -1) {
		target := m[1]
		if target == "" {
			c.report("brokenlinks", rel, "empty link target in %q", m[0])
			continue
		}
		u, err := url.Parse(target)
		if err != nil {
			c.report("brokenlinks", rel, "malformed link %q: %v", target, err)
			continue
		}
		switch {
		case u.Scheme == "https" || u.Scheme == "http":
			if u.Host == "" {
				c.report("brokenlinks", rel, "link %q has no host", target)
			}
		case u.Scheme == "mailto":
		case u.Scheme != "":
			c.report("safelinks", rel, "link %q uses scheme %q", target, u.Scheme)
		case strings.HasPrefix(target, "#"):
		default:
			// Grafana's validator refuses relative links in a README (the catalog shows it
			// away from the package's files), even to files the package holds
			c.report("relativelinks", rel, "relative link %q: Grafana's validator wants absolute links (https://…)", target)
		}
	}
}

// checkSVG refuses scripts, event handlers, embedded foreign content and
// references to anything outside the file.
func (c *checker) checkSVG(rel string) {
	f, err := os.Open(filepath.Join(c.dir, filepath.FromSlash(rel)))
	if err != nil {
		c.report("unsafesvg", rel, "cannot read: %v", err)
		return
	}
	defer f.Close()
	dec := xml.NewDecoder(f)
	sawSVG := false
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			c.report("unsafesvg", rel, "not well-formed XML: %v", err)
			return
		}
		switch t := tok.(type) {
		case xml.StartElement:
			name := strings.ToLower(t.Name.Local)
			if !sawSVG {
				if name != "svg" {
					c.report("unsafesvg", rel, "root element is <%s>, not <svg>", t.Name.Local)
					return
				}
				sawSVG = true
			}
			switch name {
			case "script", "foreignobject", "iframe", "embed", "object", "handler", "listener":
				c.report("unsafesvg", rel, "holds a <%s> element", t.Name.Local)
			}
			for _, a := range t.Attr {
				an := strings.ToLower(a.Name.Local)
				v := strings.ToLower(strings.TrimSpace(a.Value))
				if strings.HasPrefix(an, "on") {
					c.report("unsafesvg", rel, "<%s> has the event handler %s", t.Name.Local, a.Name.Local)
				}
				if (an == "href" || an == "src") && v != "" && !strings.HasPrefix(v, "#") {
					c.report("unsafesvg", rel, "<%s> refers to %q outside the file", t.Name.Local, a.Value)
				}
				if strings.Contains(v, "javascript:") {
					c.report("unsafesvg", rel, "<%s %s> holds javascript:", t.Name.Local, a.Name.Local)
				}
			}
		case xml.ProcInst:
			if t.Target == "xml-stylesheet" {
				c.report("unsafesvg", rel, "loads a stylesheet")
			}
		case xml.Directive:
			if bytes.Contains(bytes.ToUpper(t), []byte("ENTITY")) {
				c.report("unsafesvg", rel, "declares XML entities")
			}
		}
	}
	if !sawSVG {
		c.report("unsafesvg", rel, "no <svg> element")
	}
}
