// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package deploytest

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// releaseZip writes a zip laid out as go tool mage package lays it out.
func releaseZip(t *testing.T, version string) string {
	t.Helper()
	name := filepath.Join(t.TempDir(), "emberscope-app-"+version+".zip")
	f, err := os.Create(name)
	require.NoError(t, err)
	zw := zip.NewWriter(f)
	add := func(path, content string, mode os.FileMode) {
		h := &zip.FileHeader{Name: "emberscope-app/" + path, Method: zip.Deflate}
		h.SetMode(mode)
		w, err := zw.CreateHeader(h)
		require.NoError(t, err)
		_, err = w.Write([]byte(content))
		require.NoError(t, err)
	}
	add("plugin.json", fmt.Sprintf(`{"type": "app", "id": "emberscope-app", "info": {"version": %q},
  "includes": [{"type": "datasource", "path": "datasource/plugin.json"}]}`, version), 0o644)
	add("module.js", "/* app */", 0o644)
	add("datasource/plugin.json", fmt.Sprintf(`{"type": "datasource", "id": "emberscope-datasource", "executable": "gpx_emberscope", "info": {"version": %q}}`, version), 0o644)
	add("datasource/gpx_emberscope_linux_amd64", "#!/bin/sh\n", 0o755)
	add("panel/plugin.json", fmt.Sprintf(`{"type": "panel", "id": "emberscope-flamegraph-panel", "info": {"version": %q}}`, version), 0o644)
	require.NoError(t, zw.Close())
	require.NoError(t, f.Close())
	return name
}

// fakeGrafana stands in for the development Grafana: it serves the plugin
// settings of what it loaded, and loads what is in its plugins directory
// when its reload is called (or, after a restart, at the next request).
type fakeGrafana struct {
	t          *testing.T
	pluginsDir string
	token      string

	mu      sync.Mutex
	reloads int
	loaded  string // version; "" when not loaded
	marker  string // a file the restart command creates
}

func (g *fakeGrafana) load() {
	b, err := os.ReadFile(filepath.Join(g.pluginsDir, "emberscope-app", "plugin.json"))
	if err != nil {
		g.loaded = ""
		return
	}
	var pj struct{ Info struct{ Version string } }
	if json.Unmarshal(b, &pj) == nil {
		g.loaded = pj.Info.Version
	}
}

func (g *fakeGrafana) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if r.Header.Get("Authorization") != "Bearer "+g.token {
		http.Error(w, `{"message":"invalid API key"}`, http.StatusUnauthorized)
		return
	}
	if g.marker != "" {
		if _, err := os.Stat(g.marker); err == nil {
			g.load() // restarted
			os.Remove(g.marker)
		}
	}
	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/api/admin/plugins/reload":
		g.reloads++
		g.load()
		w.WriteHeader(http.StatusNoContent)
	case r.Method == http.MethodGet && r.URL.Path == "/api/plugins/emberscope-app/settings":
		if g.loaded == "" {
			http.Error(w, `{"message":"Plugin not found"}`, http.StatusNotFound)
			return
		}
		fmt.Fprintf(w, `{"name":"Emberscope","type":"app","id":"emberscope-app","enabled":true,"info":{"author":{"name":"Emberscope"},"version":%q,"updated":"2026-12-01"},"dependencies":{"grafanaDependency":">=12.3.0","grafanaVersion":"*"}}`, g.loaded)
	default:
		http.NotFound(w, r)
	}
}

func runDeploy(t *testing.T, env []string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command("bash", append([]string{filepath.Join(repoRoot(t), "scripts", "deploy-dev.sh")}, args...)...)
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "DEPLOY_WAIT_SECONDS=5"}, env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

// A volume target: the plugin folder replaces the old one, unsigned
// loading is allowed in grafana.ini, the reload is called with the token and
// the script waits until Grafana serves the new version.
func TestDeployToAVolume(t *testing.T) {
	plugins := t.TempDir()
	old := filepath.Join(plugins, "emberscope-app")
	require.NoError(t, os.MkdirAll(old, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(old, "plugin.json"), []byte(`{"info": {"version": "0.0.9"}}`), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(old, "stale.js"), []byte("old"), 0o644))
	require.NoError(t, os.MkdirAll(filepath.Join(plugins, "other-panel"), 0o755))
	ini := filepath.Join(t.TempDir(), "grafana.ini")
	require.NoError(t, os.WriteFile(ini, []byte("[server]\nhttp_port = 3000\n\n[plugins]\nallow_loading_unsigned_plugins = acme-panel\n\n[log]\nlevel = info\n"), 0o644))

	g := &fakeGrafana{t: t, pluginsDir: plugins, token: "dev-token"}
	g.load()
	srv := httptest.NewServer(g)
	defer srv.Close()

	env := []string{"DEPLOY_TARGET=file://" + plugins, "GRAFANA_URL=" + srv.URL, "GRAFANA_TOKEN=dev-token",
		"GRAFANA_RELOAD_URL=" + srv.URL + "/api/admin/plugins/reload", "GRAFANA_INI=" + ini}
	out, err := runDeploy(t, env, releaseZip(t, "0.2.0"))
	require.NoError(t, err, out)
	assert.Contains(t, out, "serves emberscope-app 0.2.0")
	assert.Equal(t, 1, g.reloads)

	assert.NoFileExists(t, filepath.Join(old, "stale.js"), "the old folder is replaced, not merged")
	assert.DirExists(t, filepath.Join(plugins, "other-panel"), "other plugins are left alone")
	st, err := os.Stat(filepath.Join(plugins, "emberscope-app", "datasource", "gpx_emberscope_linux_amd64"))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o755), st.Mode().Perm())
	entries, _ := os.ReadDir(plugins)
	assert.Len(t, entries, 2, "no temporary folders left behind")

	b, err := os.ReadFile(ini)
	require.NoError(t, err)
	assert.Equal(t, "[server]\nhttp_port = 3000\n\n[plugins]\nallow_loading_unsigned_plugins = acme-panel,emberscope-app,emberscope-datasource,emberscope-flamegraph-panel\n\n[log]\nlevel = info\n", string(b))

	// Deploying again changes nothing in the ini.
	out, err = runDeploy(t, env, releaseZip(t, "0.2.1"))
	require.NoError(t, err, out)
	b2, _ := os.ReadFile(ini)
	assert.Equal(t, string(b), string(b2))
}

// An SSH target, through a stand-in ssh that runs the remote command here:
// the host key is pinned, the key file used, Grafana restarted on the host.
func TestDeployOverSSH(t *testing.T) {
	plugins := t.TempDir()
	bin := t.TempDir()
	log := filepath.Join(t.TempDir(), "ssh.log")
	fakeSSH := `#!/bin/sh
printf '%s\n' "$@" >> "` + log + `"
echo --- >> "` + log + `"
while [ $# -gt 0 ]; do
  case "$1" in -p|-o|-i) shift 2 ;; -*) shift ;; *) break ;; esac
done
shift # the host
exec sh -c "$*"
`
	require.NoError(t, os.WriteFile(filepath.Join(bin, "ssh"), []byte(fakeSSH), 0o755))
	marker := filepath.Join(t.TempDir(), "restarted")
	g := &fakeGrafana{t: t, pluginsDir: plugins, token: "dev-token", marker: marker}
	srv := httptest.NewServer(g)
	defer srv.Close()
	ini := filepath.Join(t.TempDir(), "grafana.ini")

	env := []string{
		"PATH=" + bin + ":" + os.Getenv("PATH"),
		"DEPLOY_TARGET=ssh://deploy@grafana-dev:2222" + plugins,
		"DEPLOY_SSH_KNOWN_HOSTS=[grafana-dev]:2222 ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFakeHostKeyForTheTest",
		"DEPLOY_SSH_KEY=-----BEGIN OPENSSH PRIVATE KEY-----\nfake\n-----END OPENSSH PRIVATE KEY-----",
		"DEPLOY_RESTART_CMD=touch " + marker,
		"GRAFANA_INI=" + ini,
		"GRAFANA_URL=" + srv.URL, "GRAFANA_TOKEN=dev-token",
	}
	// PATH given twice: the later one (with the stand-in) wins in exec's environment.
	out, err := runDeploy(t, env, releaseZip(t, "0.3.0"))
	require.NoError(t, err, out)
	assert.Contains(t, out, "serves emberscope-app 0.3.0")
	assert.FileExists(t, filepath.Join(plugins, "emberscope-app", "datasource", "gpx_emberscope_linux_amd64"))
	b, err := os.ReadFile(ini)
	require.NoError(t, err)
	assert.Contains(t, string(b), "[plugins]\nallow_loading_unsigned_plugins = emberscope-app,emberscope-datasource,emberscope-flamegraph-panel\n")

	calls, err := os.ReadFile(log)
	require.NoError(t, err)
	first := strings.Split(string(calls), "---\n")[0]
	for _, want := range []string{"-p\n2222\n", "StrictHostKeyChecking=yes", "BatchMode=yes", "deploy@grafana-dev\n", "-i\n"} {
		assert.Contains(t, first, want)
	}
	assert.Equal(t, 3, strings.Count(string(calls), "---\n"), "copy, ini, restart")
}

func TestDeployFailsClearly(t *testing.T) {
	zip := releaseZip(t, "0.2.0")
	out, err := runDeploy(t, nil, zip)
	require.Error(t, err)
	assert.Contains(t, out, "missing settings (CI secrets): DEPLOY_TARGET, GRAFANA_URL, GRAFANA_TOKEN, GRAFANA_RELOAD_URL or DEPLOY_RESTART_CMD")

	out, err = runDeploy(t, []string{"DEPLOY_TARGET=ssh://deploy@grafana-dev/var/lib/grafana/plugins", "GRAFANA_URL=http://127.0.0.1:1", "GRAFANA_TOKEN=x", "DEPLOY_RESTART_CMD=true"}, zip)
	require.Error(t, err)
	assert.Contains(t, out, "missing settings (CI secrets): DEPLOY_SSH_KNOWN_HOSTS", "never trusts a host blindly")

	// A token Grafana refuses.
	plugins := t.TempDir()
	g := &fakeGrafana{t: t, pluginsDir: plugins, token: "right"}
	srv := httptest.NewServer(g)
	defer srv.Close()
	out, err = runDeploy(t, []string{"DEPLOY_TARGET=" + plugins, "GRAFANA_URL=" + srv.URL, "GRAFANA_TOKEN=wrong",
		"GRAFANA_RELOAD_URL=" + srv.URL + "/api/admin/plugins/reload"}, zip)
	require.Error(t, err)
	assert.Contains(t, out, "reload answered HTTP 401")

	// Grafana that never loads the plugin (unsigned loading not allowed).
	g2 := &fakeGrafana{t: t, pluginsDir: t.TempDir(), token: "right"}
	srv2 := httptest.NewServer(g2)
	defer srv2.Close()
	out, err = runDeploy(t, []string{"DEPLOY_TARGET=" + plugins, "GRAFANA_URL=" + srv2.URL, "GRAFANA_TOKEN=right",
		"DEPLOY_RESTART_CMD=true", "DEPLOY_WAIT_SECONDS=1"}, zip)
	require.Error(t, err)
	assert.Contains(t, out, "gave up waiting: Grafana has not loaded emberscope-app (is unsigned loading allowed for emberscope-app,emberscope-datasource,emberscope-flamegraph-panel?)")

	// Not a release zip.
	out, err = runDeploy(t, []string{"DEPLOY_TARGET=" + plugins, "GRAFANA_URL=" + srv.URL, "GRAFANA_TOKEN=right", "DEPLOY_RESTART_CMD=true"}, filepath.Join(t.TempDir(), "missing.zip"))
	require.Error(t, err)
	assert.Contains(t, out, "no such file")
}
