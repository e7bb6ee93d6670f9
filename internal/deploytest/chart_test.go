// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package deploytest

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"text/template"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"
)

// renderChart renders the chart's templates as helm template would, with
// the template functions the chart uses (helm is not installed here), and
// returns the Kubernetes objects.
func renderChart(t *testing.T, dir string, set func(values map[string]any)) ([]map[string]any, error) {
	t.Helper()
	var chart struct {
		Name       string `yaml:"name"`
		Version    string `yaml:"version"`
		AppVersion string `yaml:"appVersion"`
	}
	readYAML(t, filepath.Join(dir, "Chart.yaml"), &chart)
	values := map[string]any{}
	readYAML(t, filepath.Join(dir, "values.yaml"), &values)
	if set != nil {
		set(values)
	}
	root := template.New("chart").Option("missingkey=error")
	funcs := template.FuncMap{
		"include": func(name string, data any) (string, error) {
			var b bytes.Buffer
			err := root.ExecuteTemplate(&b, name, data)
			return b.String(), err
		},
		"toYaml": func(v any) (string, error) {
			b, err := yaml.Marshal(v)
			return strings.TrimSuffix(string(b), "\n"), err
		},
		"indent":  func(n int, s string) string { return indent(n, s) },
		"nindent": func(n int, s string) string { return "\n" + indent(n, s) },
		"quote":   func(v any) string { return strconv.Quote(fmt.Sprint(v)) },
		"default": func(d, v any) any {
			if v == nil || v == "" || v == false || v == 0 {
				return d
			}
			return v
		},
		"trunc": func(n int, s string) string {
			if len(s) > n {
				return s[:n]
			}
			return s
		},
		"trimSuffix": func(suffix, s string) string { return strings.TrimSuffix(s, suffix) },
		"fail":       func(msg string) (string, error) { return "", errors.New(msg) },
	}
	root.Funcs(funcs)
	files, err := filepath.Glob(filepath.Join(dir, "templates", "*"))
	require.NoError(t, err)
	sort.Strings(files)
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		_, err = root.New(filepath.Base(f)).Parse(string(b))
		require.NoError(t, err, f)
	}
	data := map[string]any{
		"Values":  values,
		"Chart":   map[string]any{"Name": chart.Name, "Version": chart.Version, "AppVersion": chart.AppVersion},
		"Release": map[string]any{"Name": "demo", "Namespace": "profiling", "Service": "Helm"},
	}
	var objects []map[string]any
	for _, f := range files {
		name := filepath.Base(f)
		if strings.HasPrefix(name, "_") {
			continue
		}
		var b bytes.Buffer
		if err := root.ExecuteTemplate(&b, name, data); err != nil {
			return nil, err
		}
		dec := yaml.NewDecoder(&b)
		for {
			var obj map[string]any
			err := dec.Decode(&obj)
			if err != nil {
				if err.Error() == "EOF" {
					break
				}
				require.NoError(t, err, "%s renders to YAML:\n%s", name, b.String())
			}
			if obj != nil {
				objects = append(objects, obj)
			}
		}
	}
	return objects, nil
}

func indent(n int, s string) string {
	pad := strings.Repeat(" ", n)
	return pad + strings.ReplaceAll(s, "\n", "\n"+pad)
}

func readYAML(t *testing.T, name string, v any) {
	t.Helper()
	b, err := os.ReadFile(name)
	require.NoError(t, err)
	require.NoError(t, yaml.Unmarshal(b, v), name)
}

// get walks a decoded object by keys and list indexes.
func get(t *testing.T, v any, path ...any) any {
	t.Helper()
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, ok := v.(map[string]any)
			require.True(t, ok, "%v: not a map at %q", path, k)
			v = m[k]
		case int:
			l, ok := v.([]any)
			require.True(t, ok && k < len(l), "%v: no item %d", path, k)
			v = l[k]
		}
	}
	return v
}

func byKind(objs []map[string]any) map[string][]map[string]any {
	out := map[string][]map[string]any{}
	for _, o := range objs {
		k := o["kind"].(string)
		out[k] = append(out[k], o)
	}
	return out
}

const chartDir = "deploy/helm/emberscope"

func withPluginURL(v map[string]any) {
	v["grafana"].(map[string]any)["plugin"].(map[string]any)["url"] = "https://plugins.example.org/emberscope-app-0.1.0.zip"
}

func TestHelmChartStore(t *testing.T) {
	root := repoRoot(t)
	objs, err := renderChart(t, filepath.Join(root, chartDir), withPluginURL)
	require.NoError(t, err)
	kinds := byKind(objs)
	require.Len(t, kinds["StatefulSet"], 1)
	sts := kinds["StatefulSet"][0]
	assert.Equal(t, "demo-emberscope-store", get(t, sts, "metadata", "name"))
	spec := get(t, sts, "spec").(map[string]any)
	pod := get(t, spec, "template", "spec").(map[string]any)
	c := get(t, pod, "containers", 0).(map[string]any)

	// The image's default arguments, image tag from the chart's appVersion,
	// which is the release's version.
	var pkg struct{ Version string }
	readYAML(t, filepath.Join(root, "package.json"), &pkg)
	assert.Equal(t, "emberscope:"+pkg.Version, c["image"])
	d := parseDockerfile(t, filepath.Join(root, "Dockerfile"))
	var args []string
	for _, a := range c["args"].([]any) {
		args = append(args, a.(string))
	}
	// The image's command, then the store's Service names as allowed Host
	// headers (the DNS rebinding guard refuses other names).
	hosts := "demo-emberscope-store,demo-emberscope-store.profiling,demo-emberscope-store.profiling.svc,demo-emberscope-store.profiling.svc.cluster.local"
	assert.Equal(t, append(execForm(t, d.last(t, "CMD")), "-allowed-hosts", hosts), args)

	// Runs as the image's user, with a persistent volume at /data.
	uid, _, _ := strings.Cut(d.last(t, "USER"), ":")
	assert.Equal(t, true, get(t, pod, "securityContext", "runAsNonRoot"))
	assert.Equal(t, uid, fmt.Sprint(get(t, pod, "securityContext", "runAsUser")))
	assert.Equal(t, uid, fmt.Sprint(get(t, pod, "securityContext", "fsGroup")), "the volume is writable by the store")
	claim := get(t, spec, "volumeClaimTemplates", 0).(map[string]any)
	assert.Equal(t, "10Gi", get(t, claim, "spec", "resources", "requests", "storage"))
	assert.Equal(t, get(t, claim, "metadata", "name"), get(t, c, "volumeMounts", 0, "name"))
	assert.Equal(t, "/data", get(t, c, "volumeMounts", 0, "mountPath"))

	// Probes on /ready at the container's named port; limits set.
	port := get(t, c, "ports", 0).(map[string]any)
	assert.Equal(t, 4040, port["containerPort"])
	for _, probe := range []string{"startupProbe", "readinessProbe", "livenessProbe"} {
		assert.Equal(t, "/ready", get(t, c, probe, "httpGet", "path"), probe)
		assert.Equal(t, port["name"], get(t, c, probe, "httpGet", "port"), probe)
	}
	assert.NotEmpty(t, get(t, c, "resources", "limits", "cpu"))
	assert.NotEmpty(t, get(t, c, "resources", "limits", "memory"))
	assert.NotEmpty(t, get(t, c, "resources", "requests", "memory"))
	assert.Equal(t, true, get(t, c, "securityContext", "readOnlyRootFilesystem"))
	for _, e := range c["env"].([]any) {
		assert.NotEqual(t, "OTEL_EXPORTER_OTLP_ENDPOINT", e.(map[string]any)["name"], "tracing off by default")
	}

	// Services select the pods; the governing one is headless.
	podLabels := get(t, spec, "template", "metadata", "labels").(map[string]any)
	assert.Equal(t, podLabels, get(t, spec, "selector", "matchLabels"))
	services := map[string]map[string]any{}
	for _, s := range kinds["Service"] {
		services[get(t, s, "metadata", "name").(string)] = s
	}
	headless := services[spec["serviceName"].(string)]
	require.NotNil(t, headless, "serviceName names a Service")
	assert.Equal(t, "None", get(t, headless, "spec", "clusterIP"))
	store := services["demo-emberscope-store"]
	require.NotNil(t, store)
	for k, v := range get(t, store, "spec", "selector").(map[string]any) {
		assert.Equal(t, podLabels[k], v, "the store Service selects the store pods")
	}
}

func TestHelmChartGrafanaWithThePlugin(t *testing.T) {
	root := repoRoot(t)
	objs, err := renderChart(t, filepath.Join(root, chartDir), withPluginURL)
	require.NoError(t, err)
	kinds := byKind(objs)
	require.Len(t, kinds["Deployment"], 1)
	dep := kinds["Deployment"][0]
	c := get(t, dep, "spec", "template", "spec", "containers", 0).(map[string]any)
	env := map[string]string{}
	for _, e := range c["env"].([]any) {
		m := e.(map[string]any)
		if v, ok := m["value"].(string); ok {
			env[m["name"].(string)] = v
		}
	}
	app, ids := pluginIDs(t, root)
	assert.Equal(t, "https://plugins.example.org/emberscope-app-0.1.0.zip;"+app, env["GF_INSTALL_PLUGINS"])
	assert.ElementsMatch(t, ids, strings.Split(env["GF_PLUGINS_ALLOW_LOADING_UNSIGNED_PLUGINS"], ","))
	assert.Equal(t, "/api/health", get(t, c, "readinessProbe", "httpGet", "path"))
	assert.NotEmpty(t, get(t, c, "resources", "limits", "memory"))

	// The provisioned datasource reads the store's Service.
	require.Len(t, kinds["ConfigMap"], 1)
	var ds struct {
		Datasources []struct{ Type, URL string } `yaml:"datasources"`
	}
	require.NoError(t, yaml.Unmarshal([]byte(get(t, kinds["ConfigMap"][0], "data", "datasources.yaml").(string)), &ds))
	require.Len(t, ds.Datasources, 1)
	assert.Equal(t, "emberscope-datasource", ds.Datasources[0].Type)
	assert.Equal(t, "http://demo-emberscope-store:4040", ds.Datasources[0].URL)
	var mounted []string
	for _, m := range c["volumeMounts"].([]any) {
		mounted = append(mounted, m.(map[string]any)["mountPath"].(string))
	}
	assert.Contains(t, mounted, "/etc/grafana/provisioning/datasources/emberscope.yaml")
}

func TestHelmChartOptions(t *testing.T) {
	root := repoRoot(t)
	_, err := renderChart(t, filepath.Join(root, chartDir), nil)
	require.Error(t, err, "Grafana needs to know where the plugin is")
	assert.Contains(t, err.Error(), "grafana.plugin.url is required")

	objs, err := renderChart(t, filepath.Join(root, chartDir), func(v map[string]any) {
		v["grafana"].(map[string]any)["enabled"] = false
		store := v["store"].(map[string]any)
		store["otel"].(map[string]any)["endpoint"] = "http://collector:4318"
		store["persistence"].(map[string]any)["storageClassName"] = "fast"
		store["extraArgs"] = []any{"-max-age", "24h"}
	})
	require.NoError(t, err)
	kinds := byKind(objs)
	assert.Empty(t, kinds["Deployment"], "no Grafana")
	assert.Empty(t, kinds["ConfigMap"])
	sts := kinds["StatefulSet"][0]
	c := get(t, sts, "spec", "template", "spec", "containers", 0).(map[string]any)
	hosts := "demo-emberscope-store,demo-emberscope-store.profiling,demo-emberscope-store.profiling.svc,demo-emberscope-store.profiling.svc.cluster.local"
	assert.Equal(t, []any{"store", "-listen", ":4040", "-data", "/data", "-allowed-hosts", hosts, "-max-age", "24h"}, c["args"])
	assert.Contains(t, c["env"], map[string]any{"name": "OTEL_EXPORTER_OTLP_ENDPOINT", "value": "http://collector:4318"})
	assert.Equal(t, "fast", get(t, sts, "spec", "volumeClaimTemplates", 0, "spec", "storageClassName"))
}
