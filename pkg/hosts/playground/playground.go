// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Package playground hosts the datasource's backend behind the HTTP shapes of
// Grafana's API, so that the playground page (and the browser tests) can use
// the very same pkg/datasource/plugin code without a Grafana server:
//
//	POST     /api/ds/query                                   QueryData
//	GET|POST /api/datasources/uid/emberscope/resources/<path> CallResource
//	GET      /api/datasources/uid/emberscope/health          CheckHealth
//	GET      /api/datasources/uid/emberscope                 the datasource's settings
//
// plus the playground page, embedded in the binary (package page) or read
// from a directory. It is a host, not a second implementation: every answer
// comes from the plugin's handlers.
package playground

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"

	"github.com/grafana/grafana-plugin-sdk-go/backend"

	"github.com/emberscope/emberscope/pkg/datasource/plugin"
	dssettings "github.com/emberscope/emberscope/pkg/datasource/settings"
	"github.com/emberscope/emberscope/pkg/datasource/source"
	"github.com/emberscope/emberscope/pkg/hosts/playground/page"
)

// DatasourceUID is the uid under which the playground serves the datasource,
// as in provisioning/datasources/emberscope.yaml.
const DatasourceUID = "emberscope"

// BuildCommand builds the playground page (into the binary's next build).
const BuildCommand = page.BuildCommand

// Options configure the playground.
type Options struct {
	// BackendURL is the profile server the datasource reads (required
	// unless Source is set).
	BackendURL string
	// Source, when set, is what the datasource reads instead of a server
	// (`emberscope open` gives it the opened files).
	Source source.Source
	// StaticDir, when set, is a directory holding a built playground page to
	// serve instead of the page embedded in the binary.
	StaticDir string
	// Logger receives one line per request; slog.Default() when nil.
	Logger *slog.Logger
	// SourceRoots are folders the source view reads source files from
	// (the datasource's sourceRoots setting).
	SourceRoots []string
}

// host is the playground's HTTP handler.
type host struct {
	ds       *plugin.Datasource
	settings backend.DataSourceInstanceSettings
	log      *slog.Logger
}

// New returns the playground's handler for a datasource reading opts.BackendURL.
func New(opts Options) (http.Handler, error) {
	if opts.BackendURL == "" && opts.Source == nil {
		return nil, errors.New("playground: BackendURL is required")
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	settings := backend.DataSourceInstanceSettings{
		UID:      DatasourceUID,
		Type:     plugin.PluginID,
		Name:     "Emberscope",
		URL:      opts.BackendURL,
		JSONData: jsonData(opts),
	}
	var ds *plugin.Datasource
	if opts.Source != nil {
		ds = plugin.New(&dssettings.Settings{URL: opts.BackendURL, MinStep: dssettings.DefaultMinStep}, opts.Source)
	} else {
		inst, err := plugin.NewDatasource(context.Background(), settings)
		if err != nil {
			return nil, fmt.Errorf("playground: %w", err)
		}
		ds = inst.(*plugin.Datasource)
	}
	h := &host{ds: ds, settings: settings, log: opts.Logger}

	mux := http.NewServeMux()
	mux.HandleFunc("POST /api/ds/query", h.query)
	mux.HandleFunc("POST /api/datasources/uid/{uid}/resources/adhoc/upload", h.upload)
	mux.HandleFunc("GET /api/datasources/uid/{uid}/resources/{path...}", h.resource)
	mux.HandleFunc("POST /api/datasources/uid/{uid}/resources/{path...}", h.resource)
	mux.HandleFunc("GET /api/datasources/uid/{uid}/health", h.health)
	mux.HandleFunc("GET /api/datasources/uid/{uid}", h.datasource)
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		writeMessage(w, http.StatusNotFound, fmt.Sprintf("%s %s is not part of the playground's API", r.Method, r.URL.Path))
	})
	pageFS := page.FS()
	if opts.StaticDir != "" {
		pageFS = os.DirFS(opts.StaticDir)
	}
	mux.Handle("/", staticHandler(pageFS))
	return logRequests(opts.Logger, mux), nil
}

// pluginContext is what Grafana would send along with each call. The
// playground's one user is whoever runs it on their own machine: an admin,
// so that the app's Rules page can change rules.
func (h *host) pluginContext() backend.PluginContext {
	s := h.settings
	return backend.PluginContext{
		PluginID:                   plugin.PluginID,
		DataSourceInstanceSettings: &s,
		User:                       &backend.User{Login: "playground", Name: "Playground", Role: "Admin"},
	}
}

// knownUID answers 404 as Grafana does for another datasource's uid.
func (h *host) knownUID(w http.ResponseWriter, uid string) bool {
	if uid != DatasourceUID {
		writeMessage(w, http.StatusNotFound, fmt.Sprintf("Data source not found: the playground serves only uid %q, not %q", DatasourceUID, uid))
		return false
	}
	return true
}

// writeMessage writes Grafana's error shape {"message": ...}.
func writeMessage(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]string{"message": msg})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// jsonData is the datasource's settings for opts.
func jsonData(opts Options) json.RawMessage {
	if len(opts.SourceRoots) == 0 {
		return json.RawMessage(`{}`)
	}
	b, _ := json.Marshal(map[string]any{"sourceRoots": opts.SourceRoots})
	return b
}
