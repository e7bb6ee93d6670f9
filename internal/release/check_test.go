// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package release

import (
	"compress/flate"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	goodApp = `{"type":"app","id":"acme-demo-app","name":"Demo","info":{"description":"d","author":{"name":"a"},
  "version":"1.2.3","updated":"2026-12-01","logos":{"small":"img/logo.svg","large":"img/logo.svg"}},
  "includes":[{"type":"datasource","name":"DS","path":"datasource/plugin.json"}],
  "dependencies":{"grafanaDependency":">=12.3.0"}}`
	goodDS = `{"type":"datasource","id":"acme-demo-datasource","name":"DS","backend":true,"executable":"gpx_demo",
  "info":{"description":"d","author":{"name":"a"},"version":"1.2.3","updated":"2026-12-01",
  "logos":{"small":"img/logo.svg","large":"img/logo.svg"}},"dependencies":{"grafanaDependency":">=12.3.0"}}`
	goodSVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"><rect width="8" height="8" fill="#e8590c"/></svg>`
	// The kinds of source a built map names: webpack's externals and runtime,
	// the plugin's own files and a dependency's.
	goodMap = `{"version":3,"sources":["webpack://acme-demo-app/external amd \"react\"","webpack://acme-demo-app/webpack/bootstrap",
  "webpack://acme-demo-app/./module.ts","webpack://acme-demo-app/./node_modules/@dagrejs/dagre/dist/dagre.esm.js"],
  "sourcesContent":["module.exports = react;","// webpack's bootstrap","export const a = 1;\n","var dagre;"],"mappings":""}`
	goodDSMap = `{"version":3,"sources":["webpack://acme-demo-app/./datasource/module.ts"],"sourcesContent":["export const d = 1;\r\n"],"mappings":""}`
)

// goodPlugin writes a small plugin folder that passes every check, and its
// source tree.
func goodPlugin(t *testing.T) (dir, src string) {
	t.Helper()
	base := t.TempDir()
	dir, src = filepath.Join(base, "acme-demo-app"), filepath.Join(base, "src")
	files := map[string]string{
		"plugin.json":                           goodApp,
		"module.js":                             "x\n//# sourceMappingURL=module.js.map",
		"module.js.map":                         goodMap,
		"img/logo.svg":                          goodSVG,
		"datasource/plugin.json":                goodDS,
		"datasource/module.js":                  "y\n//# sourceMappingURL=module.js.map",
		"datasource/module.js.map":              goodDSMap,
		"datasource/img/logo.svg":               goodSVG,
		"CHANGELOG.md":                          "# Changelog\n\n## 1.2.3\n",
		"LICENSE":                               "Apache License\n",
		"README.md":                             "# Demo\n\nSee the [changelog](https://example.org/demo/CHANGELOG.md), the [docs](https://example.org/docs) and [below](#use).\n",
		"datasource/README.md":                  "# Demo data source\n\nReads demo data.\n",
		"datasource/gpx_demo_linux_amd64":       "elf",
		"datasource/gpx_demo_windows_amd64.exe": "pe",
	}
	for name, content := range files {
		write(t, filepath.Join(dir, name), content)
	}
	// Any Go binary carries build information; a program that does nothing will do.
	exe0 := tinyGoProgram(t)
	for _, exe := range []string{"datasource/gpx_demo_linux_amd64", "datasource/gpx_demo_windows_amd64.exe"} {
		require.NoError(t, copyFile(exe0, filepath.Join(dir, exe), 0o755))
		require.NoError(t, os.Chmod(filepath.Join(dir, exe), 0o755))
	}
	write(t, filepath.Join(src, "module.ts"), "export const a = 1;\n")
	write(t, filepath.Join(src, "datasource/module.ts"), "export const d = 1;\n")
	return dir, src
}

// tinyProgram is a Go program with no dependencies, built once for the
// package's tests by tinyGoProgram: a plugin's executable for the checks
// that read build information. The race-instrumented test binary itself
// served before, but it is tens of megabytes that the zip tests compress and
// read back.
var tinyProgram struct {
	once sync.Once
	path string
	err  error
}

// tinyGoProgram returns the path of the tiny program, built static
// (CGO_ENABLED=0), as a plugin's backend is, under a folder TestMain removes.
func tinyGoProgram(t *testing.T) string {
	t.Helper()
	tinyProgram.once.Do(func() {
		dir, err := os.MkdirTemp("", "release-test-exe-")
		if err != nil {
			tinyProgram.err = err
			return
		}
		tinyProgram.path = filepath.Join(dir, "tiny")
		if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644); err != nil {
			tinyProgram.err = err
			return
		}
		if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/tiny\n\ngo 1.26\n"), 0o644); err != nil {
			tinyProgram.err = err
			return
		}
		cmd := exec.Command("go", "build", "-trimpath", "-o", tinyProgram.path, ".")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOFLAGS=-mod=mod", "GOPROXY=off")
		if out, err := cmd.CombinedOutput(); err != nil {
			tinyProgram.err = fmt.Errorf("go build: %w\n%s", err, out)
		}
	})
	require.NoError(t, tinyProgram.err)
	return tinyProgram.path
}

func TestMain(m *testing.M) {
	code := m.Run()
	if tinyProgram.path != "" {
		os.RemoveAll(filepath.Dir(tinyProgram.path))
	}
	os.Exit(code)
}

func write(t *testing.T, name, content string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(name), 0o755))
	require.NoError(t, os.WriteFile(name, []byte(content), 0o644))
}

func expect(src string) Expect {
	return Expect{PluginID: "acme-demo-app", Version: "1.2.3", SourceDir: src, Platforms: []Platform{{"linux", "amd64"}, {"windows", "amd64"}}}
}

func TestCheckDirAcceptsAGoodPlugin(t *testing.T) {
	dir, src := goodPlugin(t)
	assert.Empty(t, Errors(CheckDir(dir, expect(src))), "(the test binary may warn about cgo)")
}

// Each broken package is refused with the validator's rule and the file.
func TestCheckDirRefuses(t *testing.T) {
	cases := []struct {
		name, rule, file, message string
		breakIt                   func(t *testing.T, dir, src string)
	}{
		{"nested plugin without path in includes", "includesnested", "plugin.json", "Nested plugin datasource/plugin.json is not declared",
			func(t *testing.T, dir, _ string) {
				write(t, filepath.Join(dir, "plugin.json"), strings.Replace(goodApp, `,"path":"datasource/plugin.json"`, "", 1))
			}},
		{"missing changelog", "changelog", "CHANGELOG.md", "missing",
			func(t *testing.T, dir, _ string) { require.NoError(t, os.Remove(filepath.Join(dir, "CHANGELOG.md"))) }},
		{"missing license", "license", "LICENSE", "missing",
			func(t *testing.T, dir, _ string) { require.NoError(t, os.Remove(filepath.Join(dir, "LICENSE"))) }},
		{"executable not 0755", "binarypermissions", "datasource/gpx_demo_linux_amd64", "0644",
			func(t *testing.T, dir, _ string) {
				require.NoError(t, os.Chmod(filepath.Join(dir, "datasource/gpx_demo_linux_amd64"), 0o644))
			}},
		{"executable missing for a platform", "backendbinary", "datasource/plugin.json", "no executable datasource/gpx_demo_windows_amd64.exe",
			func(t *testing.T, dir, _ string) {
				require.NoError(t, os.Remove(filepath.Join(dir, "datasource/gpx_demo_windows_amd64.exe")))
			}},
		{"version differs from package.json", "packagejson", "plugin.json", `"1.2.4"`,
			func(t *testing.T, dir, _ string) {
				write(t, filepath.Join(dir, "plugin.json"), strings.Replace(goodApp, "1.2.3", "1.2.4", 1))
			}},
		{"no grafanaDependency", "grafanadependency", "datasource/plugin.json", "no dependencies.grafanaDependency",
			func(t *testing.T, dir, _ string) {
				write(t, filepath.Join(dir, "datasource/plugin.json"), strings.Replace(goodDS, `"grafanaDependency":">=12.3.0"`, `"plugins":[]`, 1))
			}},
		{"logo missing", "logos", "datasource/plugin.json", "datasource/img/logo.svg is not in the package",
			func(t *testing.T, dir, _ string) {
				require.NoError(t, os.Remove(filepath.Join(dir, "datasource/img/logo.svg")))
			}},
		{"logo path starting with ./", "metadatapaths", "plugin.json", "should not start with '.'",
			func(t *testing.T, dir, _ string) {
				write(t, filepath.Join(dir, "plugin.json"), strings.Replace(goodApp, `"small":"img/logo.svg"`, `"small":"./img/logo.svg"`, 1))
			}},
		{"svg with a script", "unsafesvg", "img/logo.svg", "<script>",
			func(t *testing.T, dir, _ string) {
				write(t, filepath.Join(dir, "img/logo.svg"), `<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`)
			}},
		{"svg with an event handler", "unsafesvg", "img/logo.svg", "onload",
			func(t *testing.T, dir, _ string) {
				write(t, filepath.Join(dir, "img/logo.svg"), `<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>`)
			}},
		{"svg loading an outside image", "unsafesvg", "img/logo.svg", "outside the file",
			func(t *testing.T, dir, _ string) {
				write(t, filepath.Join(dir, "img/logo.svg"), `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><image xlink:href="https://example.org/x.png"/></svg>`)
			}},
		{"developer README", "jargon", "README.md", "npm",
			func(t *testing.T, dir, _ string) {
				write(t, filepath.Join(dir, "README.md"), "# Demo\n\nRun npm install and go tool mage.\n")
			}},
		{"README link to a missing file", "relativelinks", "README.md", "docs/setup.md",
			func(t *testing.T, dir, _ string) {
				write(t, filepath.Join(dir, "README.md"), "# Demo\n\nSee [setup](docs/setup.md).\n")
			}},
		{"README linking a packaged file relatively", "relativelinks", "README.md", `"CHANGELOG.md"`,
			func(t *testing.T, dir, _ string) {
				write(t, filepath.Join(dir, "README.md"), "# Demo\n\nSee the [changelog](CHANGELOG.md) and the [licence](./LICENSE).\n")
			}},
		{"nested plugin without README", "nestedreadme", "datasource/README.md", "datasource/plugin.json",
			func(t *testing.T, dir, _ string) {
				require.NoError(t, os.Remove(filepath.Join(dir, "datasource/README.md")))
			}},
		{"nested README linking relatively", "relativelinks", "datasource/README.md", `"../LICENSE"`,
			func(t *testing.T, dir, _ string) {
				write(t, filepath.Join(dir, "datasource/README.md"), "# Demo data source\n\n[Licence](../LICENSE).\n")
			}},
		{"README link without host", "brokenlinks", "README.md", "no host",
			func(t *testing.T, dir, _ string) {
				write(t, filepath.Join(dir, "README.md"), "# Demo\n\nSee [docs](https:///docs).\n")
			}},
		{"source map from other source", "jssourcemap", "module.js.map", "src/module.ts differs",
			func(t *testing.T, _, src string) { write(t, filepath.Join(src, "module.ts"), "export const a = 2;\n") }},
		{"source map naming an absolute path", "jssourcemap", "module.js.map",
			`"webpack://acme-demo-app//home/ci/build/node_modules/@dagrejs/dagre/dist/dagre.esm.js" names an absolute path`,
			func(t *testing.T, dir, _ string) {
				plantSource(t, dir, "module.js.map", "./node_modules/@dagrejs/dagre/dist/dagre.esm.js", "webpack://acme-demo-app//home/ci/build/node_modules/@dagrejs/dagre/dist/dagre.esm.js")
			}},
		// what webpack's default name made of dagre's module with node_modules behind a symlink
		{"source map naming a module by its type and build path", "jssourcemap", "module.js.map",
			`"webpack://acme-demo-app/javascript/home/ci/node_modules/@dagrejs/dagre/dist/dagre.esm.js" is not in the source tree`,
			func(t *testing.T, dir, _ string) {
				plantSource(t, dir, "module.js.map", "./node_modules/@dagrejs/dagre/dist/dagre.esm.js", "webpack://acme-demo-app/javascript/home/ci/node_modules/@dagrejs/dagre/dist/dagre.esm.js")
			}},
		{"source map naming a module by its type and absolute path", "jssourcemap", "module.js.map",
			`"webpack://acme-demo-app/javascript/esm|/home/ci/node_modules/@dagrejs/dagre/dist/dagre.esm.js" names an absolute path`,
			func(t *testing.T, dir, _ string) {
				plantSource(t, dir, "module.js.map", "./node_modules/@dagrejs/dagre/dist/dagre.esm.js", "webpack://acme-demo-app/javascript/esm|/home/ci/node_modules/@dagrejs/dagre/dist/dagre.esm.js")
			}},
		{"source map naming a Windows path", "jssourcemap", "module.js.map", `names an absolute path`,
			func(t *testing.T, dir, _ string) {
				plantSource(t, dir, "module.js.map", "./node_modules/@dagrejs/dagre/dist/dagre.esm.js", `webpack://acme-demo-app/C:\\build\\node_modules\\dagre.esm.js`)
			}},
		{"source map walking out of src", "jssourcemap", "module.js.map",
			`"webpack://acme-demo-app/../../../cache/node_modules/@dagrejs/dagre/dist/dagre.esm.js" lies outside src/`,
			func(t *testing.T, dir, _ string) {
				plantSource(t, dir, "module.js.map", "./node_modules/@dagrejs/dagre/dist/dagre.esm.js", "webpack://acme-demo-app/../../../cache/node_modules/@dagrejs/dagre/dist/dagre.esm.js")
			}},
		{"source map naming a file not in the tree", "jssourcemap", "datasource/module.js.map",
			`"webpack://acme-demo-app/./datasource/gone.ts" is not in the source tree`,
			func(t *testing.T, dir, _ string) {
				plantSource(t, dir, "datasource/module.js.map", "./datasource/module.ts", "webpack://acme-demo-app/./datasource/gone.ts")
			}},
		{"source map naming a file by a bare path", "jssourcemap", "module.js.map", `"/home/ci/build/src/module.ts" is not a webpack:// path`,
			func(t *testing.T, dir, _ string) {
				plantSource(t, dir, "module.js.map", "./module.ts", "/home/ci/build/src/module.ts")
			}},
		{"source map of another namespace", "jssourcemap", "module.js.map", `"webpack://other-app/./module.ts" is not under webpack://acme-demo-app/`,
			func(t *testing.T, dir, _ string) {
				plantSource(t, dir, "module.js.map", "./module.ts", "webpack://other-app/./module.ts")
			}},
		{"module.js without its source map", "jssourcemap", "datasource/module.js.map", "missing",
			func(t *testing.T, dir, _ string) {
				require.NoError(t, os.Remove(filepath.Join(dir, "datasource/module.js.map")))
			}},
		{"placeholder left in plugin.json", "metadatavalid", "datasource/plugin.json", "%VERSION%",
			func(t *testing.T, dir, _ string) {
				write(t, filepath.Join(dir, "datasource/plugin.json"), strings.Replace(goodDS, `"version":"1.2.3"`, `"version":"%VERSION%"`, 1))
			}},
		{"legacy platform import", "legacyplatform", "module.js", "app/plugins/sdk",
			func(t *testing.T, dir, _ string) {
				write(t, filepath.Join(dir, "module.js"), "define([\"app/plugins/sdk\"], function(){})\n//# sourceMappingURL=module.js.map")
			}},
		{"id without its type suffix", "typesuffix", "datasource/plugin.json", `must end in "-datasource"`,
			func(t *testing.T, dir, _ string) {
				write(t, filepath.Join(dir, "datasource/plugin.json"), strings.Replace(goodDS, "acme-demo-datasource", "acme-demo", 1))
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir, src := goodPlugin(t)
			tc.breakIt(t, dir, src)
			problems := CheckDir(dir, expect(src))
			require.NotEmpty(t, problems)
			var found bool
			for _, p := range problems {
				if p.Rule == tc.rule && p.File == tc.file && strings.Contains(p.Message, tc.message) {
					found = true
				}
			}
			assert.True(t, found, "want %s on %s mentioning %q, got %v", tc.rule, tc.file, tc.message, problems)
		})
	}
}

// An executable built for another plugin, or from other dependencies than
// go.mod's, is refused as Grafana's validator refuses it.
func TestCheckDirReadsTheExecutablesBuildInfo(t *testing.T) {
	dir, src := goodPlugin(t)
	mod := t.TempDir()
	// A program using a module already in the module cache (no network).
	write(t, filepath.Join(mod, "go.mod"), "module example.com/demo\n\ngo 1.26\n\nrequire github.com/google/uuid v1.6.0\n")
	write(t, filepath.Join(mod, "main.go"), "package main\n\nimport \"github.com/google/uuid\"\n\nvar pluginID string\n\nfunc main() { println(pluginID, uuid.NewString()) }\n")
	exe := filepath.Join(dir, "datasource", "gpx_demo_linux_amd64")
	cmd := exec.Command("go", "build", "-ldflags", "-X 'main.pluginID=acme-other-datasource'", "-o", exe, ".")
	cmd.Dir = mod
	cmd.Env = append(os.Environ(), "GOOS=linux", "GOARCH=amd64", "CGO_ENABLED=0", "GOFLAGS=-mod=mod", "GOPROXY=off", "GOSUMDB=off")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, string(out))
	require.NoError(t, os.Chmod(exe, 0o755))
	problems := Errors(CheckDir(dir, expect(src)))
	require.Len(t, problems, 1, "%v", problems)
	assert.Equal(t, "gobuildinfo", problems[0].Rule)
	assert.Equal(t, "datasource/gpx_demo_linux_amd64", problems[0].File)
	assert.Contains(t, problems[0].Message, `main.pluginID "acme-other-datasource" differs from its plugin.json id "acme-demo-datasource"`)

	e := expect(src)
	e.GoMod = filepath.Join(t.TempDir(), "go.mod")
	write(t, e.GoMod, "module example.com/demo\n\ngo 1.26\n\nrequire github.com/google/uuid v1.5.0\n")
	var messages []string
	for _, p := range Errors(CheckDir(dir, e)) {
		messages = append(messages, p.Message)
	}
	assert.Contains(t, messages, "module github.com/google/uuid is compiled in at v1.6.0 but go.mod requires v1.5.0")
}

func TestCheckZipWantsOneFolderNamedAfterThePlugin(t *testing.T) {
	dir, src := goodPlugin(t)
	base := filepath.Dir(dir)
	require.NoError(t, os.Rename(dir, filepath.Join(base, "wrong-name")))
	zipPath := filepath.Join(t.TempDir(), "p.zip")
	require.NoError(t, writeZip(base, "wrong-name", zipPath, flate.BestSpeed))
	problems, err := CheckZip(zipPath, expect(src))
	require.NoError(t, err)
	require.NotEmpty(t, problems)
	assert.Equal(t, "archive", problems[0].Rule)
	assert.Contains(t, problems[0].Message, `want the plugin id "acme-demo-app"`)
}

func TestZipKeepsExecutablePermissions(t *testing.T) {
	dir, src := goodPlugin(t)
	zipPath := filepath.Join(t.TempDir(), "p.zip")
	require.NoError(t, writeZip(filepath.Dir(dir), "acme-demo-app", zipPath, flate.BestSpeed))
	problems, err := CheckZip(zipPath, expect(src))
	require.NoError(t, err)
	assert.Empty(t, Errors(problems))
}

// The READMEs the package ships (the app's and each nested plugin's) pass the
// README rules: absolute links only, no developer jargon.
func TestOurReadmesPassTheReadmeRules(t *testing.T) {
	dir, src := goodPlugin(t)
	root := filepath.Join("..", "..", "src")
	for _, rel := range []string{"README.md", "datasource/README.md"} {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
		require.NoError(t, err)
		write(t, filepath.Join(dir, filepath.FromSlash(rel)), string(b))
	}
	panelReadme, err := os.ReadFile(filepath.Join(root, "panel", "README.md"))
	require.NoError(t, err)
	c := &checker{dir: dir, e: expect(src)}
	write(t, filepath.Join(dir, "panel", "README.md"), string(panelReadme))
	c.checkReadme("panel/README.md")
	var problems []Problem
	for _, p := range append(CheckDir(dir, expect(src)), c.problems...) {
		if strings.HasSuffix(p.File, "README.md") {
			problems = append(problems, p)
		}
	}
	assert.Empty(t, problems)
}

// plantSource renames one source of a source map in the plugin folder.
func plantSource(t *testing.T, dir, mapFile, from, to string) {
	t.Helper()
	name := filepath.Join(dir, filepath.FromSlash(mapFile))
	b, err := os.ReadFile(name)
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(b, &m))
	sources := m["sources"].([]any)
	found := false
	for i, s := range sources {
		if s == "webpack://acme-demo-app/"+from {
			sources[i], found = to, true
		}
	}
	require.True(t, found, "%s names %s", mapFile, from)
	b, err = json.Marshal(m)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(name, b, 0o644))
}
