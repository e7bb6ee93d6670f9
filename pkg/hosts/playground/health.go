// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package playground

import (
	"encoding/json"
	"net/http"

	"github.com/grafana/grafana-plugin-sdk-go/backend"
)

// health serves /api/datasources/uid/<uid>/health as Grafana does:
// {"status": "OK"|"ERROR", "message": ...}, 200 when healthy and 400 otherwise.
func (h *host) health(w http.ResponseWriter, r *http.Request) {
	if !h.knownUID(w, r.PathValue("uid")) {
		return
	}
	res, err := h.ds.CheckHealth(r.Context(), &backend.CheckHealthRequest{PluginContext: h.pluginContext()})
	if err != nil {
		writeJSON(w, http.StatusInternalServerError, map[string]string{"status": "ERROR", "message": err.Error()})
		return
	}
	out := map[string]any{"status": res.Status.String(), "message": res.Message}
	if len(res.JSONDetails) > 0 {
		out["details"] = json.RawMessage(res.JSONDetails)
	}
	status := http.StatusOK
	if res.Status != backend.HealthStatusOk {
		status = http.StatusBadRequest
	}
	writeJSON(w, status, out)
}

// datasource serves /api/datasources/uid/<uid>: the datasource's settings,
// as the frontend's DataSourceWithBackend may ask for them.
func (h *host) datasource(w http.ResponseWriter, r *http.Request) {
	if !h.knownUID(w, r.PathValue("uid")) {
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"uid":      h.settings.UID,
		"type":     h.settings.Type,
		"name":     h.settings.Name,
		"url":      h.settings.URL,
		"access":   "proxy",
		"jsonData": h.settings.JSONData,
	})
}
