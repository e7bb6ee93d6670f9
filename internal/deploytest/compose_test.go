// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package deploytest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"
)

type composeFile struct {
	Services map[string]composeService `yaml:"services"`
	Volumes  map[string]any            `yaml:"volumes"`
}

type composeService struct {
	Image       string            `yaml:"image"`
	Build       any               `yaml:"build"`
	Command     []string          `yaml:"command"`
	Ports       []string          `yaml:"ports"`
	Volumes     []string          `yaml:"volumes"`
	Environment map[string]string `yaml:"environment"`
	DependsOn   any               `yaml:"depends_on"`
	Healthcheck struct {
		Test []string `yaml:"test"`
	} `yaml:"healthcheck"`
}

// dependsOn lists a service's dependencies in either of compose's forms.
func (s composeService) dependsOn() map[string]string {
	out := map[string]string{}
	switch d := s.DependsOn.(type) {
	case []any:
		for _, v := range d {
			out[v.(string)] = "service_started"
		}
	case map[string]any:
		for k, v := range d {
			cond, _ := v.(map[string]any)["condition"].(string)
			out[k] = cond
		}
	}
	return out
}

func pluginIDs(t *testing.T, root string) (app string, all []string) {
	t.Helper()
	for _, p := range []string{"src/plugin.json", "src/datasource/plugin.json", "src/panel/plugin.json"} {
		var pj struct{ ID, Type string }
		b, err := os.ReadFile(filepath.Join(root, p))
		require.NoError(t, err)
		require.NoError(t, json.Unmarshal(b, &pj))
		all = append(all, pj.ID)
		if pj.Type == "app" {
			app = pj.ID
		}
	}
	return app, all
}

// docker-compose.yaml: Grafana with the packaged plugin, our store image,
// Pyroscope and the demo workload, wired to each other.
func TestComposeFile(t *testing.T) {
	root := repoRoot(t)
	b, err := os.ReadFile(filepath.Join(root, "docker-compose.yaml"))
	require.NoError(t, err)
	var c composeFile
	require.NoError(t, yaml.Unmarshal(b, &c))
	for _, name := range []string{"grafana", "store", "pyroscope", "demo", "plugin"} {
		require.Contains(t, c.Services, name)
	}

	// Every dependency is a service; every named volume is declared; every
	// bind-mounted file of the repository exists.
	for name, s := range c.Services {
		for dep := range s.dependsOn() {
			assert.Contains(t, c.Services, dep, "%s depends on a service", name)
		}
		for _, v := range s.Volumes {
			src, _, _ := strings.Cut(v, ":")
			switch {
			case strings.HasPrefix(src, "./artifacts"):
				// written by go tool mage package
			case strings.HasPrefix(src, "./") || strings.HasPrefix(src, "/"):
				_, err := os.Stat(filepath.Join(root, src))
				assert.NoError(t, err, "%s mounts %s", name, src)
			default:
				assert.Contains(t, c.Volumes, src, "%s uses a declared volume", name)
			}
		}
	}

	// The store: built from the Dockerfile, data in a volume at /data, the
	// image's health check.
	store := c.Services["store"]
	assert.Equal(t, ".", store.Build)
	assert.Contains(t, store.Volumes, "store-data:/data")
	d := parseDockerfile(t, filepath.Join(root, "Dockerfile"))
	hc := execForm(t, strings.SplitN(d.last(t, "HEALTHCHECK"), "CMD ", 2)[1])
	assert.Equal(t, append([]string{"CMD"}, hc...), store.Healthcheck.Test)

	// The demo workload runs from the store's image, pushing to Pyroscope
	// and to the store by their service names.
	pushTargets := map[string]bool{}
	for name, s := range c.Services {
		if len(s.Command) > 0 && s.Command[0] == "demo" {
			assert.Equal(t, store.Image, s.Image, "%s runs our image", name)
			assert.Equal(t, store.Build, s.Build, "%s builds it when missing (never pulled)", name)
			for i, a := range s.Command {
				if a == "-push-url" {
					pushTargets[s.Command[i+1]] = true
				}
			}
		}
	}
	assert.Equal(t, map[string]bool{"http://pyroscope:4040": true, "http://store:4040": true}, pushTargets)

	// Grafana loads the packaged plugin: the plugin service unpacks the
	// release zip (named as go tool mage package names it) into the volume
	// Grafana reads plugins from, unsigned loading allowed for each id.
	app, ids := pluginIDs(t, root)
	plugin := c.Services["plugin"]
	script := strings.Join(plugin.Command, " ")
	assert.Contains(t, script, "/artifacts/"+app+"-*.zip")
	assert.Contains(t, script, "unzip")
	var pluginVolume string
	for _, v := range plugin.Volumes {
		if src, dst, _ := strings.Cut(v, ":"); dst == "/plugins" {
			pluginVolume = src
		}
	}
	require.NotEmpty(t, pluginVolume)
	grafana := c.Services["grafana"]
	assert.Contains(t, grafana.Volumes, pluginVolume+":/var/lib/grafana/plugins")
	assert.Equal(t, "service_completed_successfully", grafana.dependsOn()["plugin"])
	assert.ElementsMatch(t, ids, strings.Split(grafana.Environment["GF_PLUGINS_ALLOW_LOADING_UNSIGNED_PLUGINS"], ","))

	// The provisioned datasources read Pyroscope and the store by service name.
	var urls []string
	for _, v := range grafana.Volumes {
		src, dst, _ := strings.Cut(v, ":")
		if !strings.Contains(dst, "/provisioning") || !strings.HasPrefix(src, "./") {
			continue
		}
		files := []string{filepath.Join(root, src)}
		if st, err := os.Stat(files[0]); err == nil && st.IsDir() {
			files, _ = filepath.Glob(filepath.Join(root, src, "datasources", "*.yaml"))
		}
		for _, f := range files {
			var ds struct {
				Datasources []struct{ Type, URL string } `yaml:"datasources"`
			}
			fb, err := os.ReadFile(f)
			require.NoError(t, err)
			require.NoError(t, yaml.Unmarshal(fb, &ds), f)
			for _, d := range ds.Datasources {
				if d.Type == "emberscope-datasource" {
					urls = append(urls, d.URL)
				}
			}
		}
	}
	assert.Subset(t, urls, []string{"http://pyroscope:4040", "http://store:4040"})
}
