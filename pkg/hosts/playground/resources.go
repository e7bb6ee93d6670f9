// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package playground

import (
	"io"
	"net/http"

	"github.com/grafana/grafana-plugin-sdk-go/backend"
)

// maxResourceBody bounds the body of a resource call.
const maxResourceBody = 1 << 20

// maxUploadBody bounds one chunk of an opened file: Grafana's limit on a
// resource call's body through the plugin protocol (16 MiB by default).
const maxUploadBody = 16 << 20

// upload serves the ad hoc upload route, whose chunks may be as large as
// Grafana lets a resource call's body be.
func (h *host) upload(w http.ResponseWriter, r *http.Request) {
	r.SetPathValue("path", "adhoc/upload")
	h.serveResource(w, r, maxUploadBody)
}

// resource serves /api/datasources/uid/<uid>/resources/<path> by handing the
// request to the plugin's CallResource, as Grafana does.
func (h *host) resource(w http.ResponseWriter, r *http.Request) {
	h.serveResource(w, r, maxResourceBody)
}

// serveResource is resource with a body of at most maxBody bytes.
func (h *host) serveResource(w http.ResponseWriter, r *http.Request, maxBody int64) {
	if !h.knownUID(w, r.PathValue("uid")) {
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		writeMessage(w, http.StatusBadRequest, "cannot read the request body: "+err.Error())
		return
	}
	path := r.PathValue("path")
	u := path
	if r.URL.RawQuery != "" {
		u += "?" + r.URL.RawQuery
	}
	req := &backend.CallResourceRequest{
		PluginContext: h.pluginContext(),
		Path:          path,
		Method:        r.Method,
		URL:           u,
		Headers:       r.Header.Clone(),
		Body:          body,
	}
	wrote := false
	err = h.ds.CallResource(r.Context(), req, backend.CallResourceResponseSenderFunc(func(res *backend.CallResourceResponse) error {
		for k, vs := range res.Headers {
			for _, v := range vs {
				w.Header().Add(k, v)
			}
		}
		if !wrote {
			w.WriteHeader(res.Status)
			wrote = true
		}
		_, err := w.Write(res.Body)
		return err
	}))
	if err != nil && !wrote {
		writeMessage(w, http.StatusInternalServerError, "resource call failed: "+err.Error())
	}
}
