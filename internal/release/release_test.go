// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package release

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"debug/elf"
	"encoding/hex"
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	require.FileExists(t, filepath.Join(root, "package.json"))
	return root
}

// TestPackage builds the release for linux/amd64 (the mage target builds all
// six platforms the same way), unpacks the zip as Grafana would and checks
// what Grafana's plugin validator checks.
func TestPackage(t *testing.T) {
	root := repoRoot(t)
	out := t.TempDir()
	var log bytes.Buffer
	linux := Platform{"linux", "amd64"}
	// scripts/test.sh builds dist/ from this tree before the Go tests run and says so: the
	// package is then staged from that build instead of a second one.
	skipFrontend := os.Getenv("EMBERSCOPE_DIST_BUILT") == "1"
	res, err := Build(context.Background(), Options{Root: root, OutDir: out, Platforms: []Platform{linux}, SkipFrontend: skipFrontend, Log: &log, fastZip: true})
	require.NoError(t, err, log.String())

	var pkg struct{ Version string }
	readJSON(t, filepath.Join(root, "package.json"), &pkg)
	assert.Equal(t, "emberscope-app", res.PluginID)
	assert.Equal(t, filepath.Join(out, "emberscope-app-"+pkg.Version+".zip"), res.Zip)

	// The checksum file beside the zip is sha256sum's line for it.
	zipBytes, err := os.ReadFile(res.Zip)
	require.NoError(t, err)
	sum := sha256.Sum256(zipBytes)
	checksum, err := os.ReadFile(res.Checksum)
	require.NoError(t, err)
	assert.Equal(t, hex.EncodeToString(sum[:])+"  "+filepath.Base(res.Zip)+"\n", string(checksum))

	zr, err := zip.NewReader(bytes.NewReader(zipBytes), int64(len(zipBytes)))
	require.NoError(t, err)
	files := map[string]*zip.File{}
	for _, f := range zr.File {
		require.True(t, strings.HasPrefix(f.Name, "emberscope-app/"), "every entry inside the one folder named after the plugin id: %s", f.Name)
		if !f.FileInfo().IsDir() {
			files[strings.TrimPrefix(f.Name, "emberscope-app/")] = f
		}
	}
	// The package is unpacked once, as Grafana would, and the entries are
	// read from there (Unzip checks each entry's CRC-32): inflating the
	// executable under the race detector is the costly part.
	dir := t.TempDir()
	tops, err := Unzip(res.Zip, dir)
	require.NoError(t, err)
	require.Equal(t, []string{"emberscope-app"}, tops)
	pluginDir := filepath.Join(dir, tops[0])
	read := func(name string) []byte {
		t.Helper()
		require.NotNil(t, files[name], "%s in the zip", name)
		b, err := os.ReadFile(filepath.Join(pluginDir, filepath.FromSlash(name)))
		require.NoError(t, err)
		return b
	}

	type include struct{ Type, Name, Path string }
	type manifest struct {
		ID, Type, Name string
		Backend        bool
		Executable     string
		Info           struct {
			Version string
			Logos   struct{ Small, Large string }
		}
		Includes     []include
		Dependencies struct{ GrafanaDependency string }
	}
	parse := func(name string) manifest {
		var m manifest
		require.NoError(t, json.Unmarshal(read(name), &m), name)
		return m
	}
	app := parse("plugin.json")
	assert.Equal(t, "app", app.Type)
	assert.Equal(t, "emberscope-app", app.ID)

	// Every plugin.json in the zip: the app, and each nested one declared
	// in the app's includes with its path and type.
	var nested []string
	for name := range files {
		if path.Base(name) == "plugin.json" && name != "plugin.json" {
			nested = append(nested, name)
		}
	}
	assert.ElementsMatch(t, []string{"datasource/plugin.json", "panel/plugin.json"}, nested)
	for _, name := range append([]string{"plugin.json"}, nested...) {
		m := parse(name)
		dir := path.Dir(name)
		assert.Equal(t, pkg.Version, m.Info.Version, "%s version equals package.json's", name)
		assert.NotEmpty(t, m.Dependencies.GrafanaDependency, "%s grafanaDependency", name)
		assert.Contains(t, files, path.Join(dir, m.Info.Logos.Small), "%s small logo", name)
		assert.Contains(t, files, path.Join(dir, m.Info.Logos.Large), "%s large logo", name)
		assert.Contains(t, files, path.Join(dir, "module.js"), "%s module.js", name)
		assert.NotContains(t, string(read(name)), "%VERSION%")
		if name == "plugin.json" {
			continue
		}
		declared := false
		for _, inc := range app.Includes {
			if inc.Path == name {
				declared = true
				assert.Equal(t, m.Type, inc.Type, "%s declared with its type", name)
			}
		}
		assert.True(t, declared, "%s declared in the app's includes with its path", name)
	}

	// The datasource's executable, named as its plugin.json says, static,
	// for linux/amd64, with permissions 0755.
	ds := parse("datasource/plugin.json")
	require.True(t, ds.Backend)
	require.Equal(t, "gpx_emberscope", ds.Executable)
	exe := "datasource/gpx_emberscope_linux_amd64"
	require.Contains(t, files, exe)
	assert.Equal(t, os.FileMode(0o755), files[exe].Mode().Perm())
	unpacked, err := os.Stat(filepath.Join(pluginDir, "datasource", "gpx_emberscope_linux_amd64"))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o755), unpacked.Mode().Perm(), "still executable once unpacked")
	ef, err := elf.NewFile(bytes.NewReader(read(exe)))
	require.NoError(t, err)
	assert.Equal(t, elf.EM_X86_64, ef.Machine)
	for _, p := range ef.Progs {
		assert.NotEqual(t, elf.PT_INTERP, p.Type, "statically linked: no program interpreter")
	}
	for name := range files {
		assert.False(t, strings.Contains(name, "gpx_") && name != exe, "only the platforms asked for: %s", name)
	}

	// The files Grafana's validator wants.
	assert.Contains(t, string(read("LICENSE")), "Apache License")
	assert.Contains(t, string(read("LICENSE")), "Version 2.0")
	changelog := string(read("CHANGELOG.md"))
	assert.Contains(t, changelog, "## "+pkg.Version)
	catalog, err := os.ReadFile(filepath.Join(root, "src", "README.md"))
	require.NoError(t, err)
	assert.Equal(t, string(catalog), string(read("README.md")), "the catalog README, not the repository's")
	assert.NotContains(t, string(read("README.md")), "scripts/")
	// Grafana's page of each nested plugin shows the README.md beside its plugin.json
	for _, nested := range []string{"datasource", "panel"} {
		want, err := os.ReadFile(filepath.Join(root, "src", nested, "README.md"))
		require.NoError(t, err)
		assert.Equal(t, string(want), string(read(nested+"/README.md")), "%s/README.md", nested)
	}

	// Source maps carry the very source they were built from, and name
	// every source by a relative webpack:// path: webpack's runtime and
	// externals, our files under src/, dependencies under ./node_modules/.
	for _, name := range []string{"module.js.map", "datasource/module.js.map", "panel/module.js.map"} {
		var m struct {
			Sources        []string
			SourcesContent []string
		}
		require.NoError(t, json.Unmarshal(read(name), &m), name)
		own := 0
		for i, s := range m.Sources {
			rel, ok := strings.CutPrefix(s, "webpack://emberscope-app/")
			require.True(t, ok, "%s: %s", name, s)
			assert.NotContains(t, s, root, "%s: the build machine's folders", name)
			assert.False(t, strings.HasPrefix(rel, "/") || strings.HasPrefix(rel, "../"), "%s: %s", name, s)
			rel, ok = strings.CutPrefix(rel, "./")
			if !ok {
				assert.Regexp(t, `^(external |webpack/)`, rel, name)
				continue
			}
			if strings.HasPrefix(rel, "node_modules/") {
				continue
			}
			own++
			src, err := os.ReadFile(filepath.Join(root, "src", rel))
			require.NoError(t, err, "%s maps %s", name, rel)
			assert.Equal(t, string(src), m.SourcesContent[i], "%s: %s", name, rel)
		}
		assert.Positive(t, own, "%s maps our sources", name)
	}
	assert.Contains(t, string(read("panel/module.js.map")), `"webpack://emberscope-app/./node_modules/@dagrejs/dagre/dist/dagre.esm.js"`)

	// And the package's own check agrees: CheckZip is Unzip, the one folder
	// named after the plugin id (checked above) and CheckDir on it, run here
	// on the folder already unpacked rather than inflating the archive again.
	e := Expect{PluginID: "emberscope-app", Version: pkg.Version, SourceDir: filepath.Join(root, "src"), Platforms: []Platform{linux}}
	assert.Empty(t, Errors(CheckDir(pluginDir, e)))

	// It fails the package once a map names an absolute path, or a source
	// the tree does not hold, and says which map and which source. Each
	// plant starts from the map as packed.
	mapFile := filepath.Join(pluginDir, "panel", "module.js.map")
	packedMap, err := os.ReadFile(mapFile)
	require.NoError(t, err)
	for _, plant := range []struct{ from, to, message string }{
		{"./node_modules/@dagrejs/dagre/dist/dagre.esm.js", "/home/ci/emberscope/node_modules/@dagrejs/dagre/dist/dagre.esm.js", "names an absolute path"},
		{"./panel/module.tsx", "./panel/gone.tsx", "is not in the source tree"},
	} {
		from, to := `"webpack://emberscope-app/`+plant.from+`"`, `"webpack://emberscope-app/`+plant.to+`"`
		require.Contains(t, string(packedMap), from)
		require.NoError(t, os.WriteFile(mapFile, []byte(strings.Replace(string(packedMap), from, to, 1)), 0o644))
		errs := Errors(CheckDir(pluginDir, e))
		require.Len(t, errs, 1, "%v", errs)
		assert.Equal(t, "jssourcemap", errs[0].Rule)
		assert.Equal(t, "panel/module.js.map", errs[0].File)
		assert.Contains(t, errs[0].Message, to+" "+plant.message)
	}
}

func readJSON(t *testing.T, name string, v any) {
	t.Helper()
	b, err := os.ReadFile(name)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, v))
}
