// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/grafana/grafana-plugin-sdk-go/backend"
	"github.com/grafana/grafana-plugin-sdk-go/backend/resource/httpadapter"

	"github.com/emberscope/emberscope/pkg/datasource/query"
	"github.com/emberscope/emberscope/pkg/datasource/source"
)

// defaultResourceLookback is the range of a resource call without start/end.
const defaultResourceLookback = 24 * time.Hour

// resourceHandler routes the editor's resource calls, one file per route.
func (d *Datasource) resourceHandler() backend.CallResourceHandler {
	mux := http.NewServeMux()
	mux.HandleFunc("/profileTypes", d.route("profileTypes", d.profileTypes))
	mux.HandleFunc("/labelNames", d.route("labelNames", d.labelNames))
	mux.HandleFunc("/labelValues", d.route("labelValues", d.labelValues))
	mux.HandleFunc("/export", d.export)
	mux.HandleFunc("/pgo", d.pgo)
	d.adhocRoutes(mux)
	d.rulesRoutes(mux)
	mux.HandleFunc("/source", d.route("source", d.sourceView))
	return httpadapter.New(mux)
}

// resourceFunc answers a resource call with a value to encode as JSON.
type resourceFunc func(r *http.Request) (any, error)

// route wraps a resource function: GET or POST only, JSON out, errors as
// {"error": message} with the error's status.
func (d *Datasource) route(name string, fn resourceFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodPost {
			writeJSON(w, http.StatusMethodNotAllowed, map[string]string{"error": r.Method + " is not allowed: use GET or POST"})
			return
		}
		v, err := fn(r)
		resourceCallsTotal.WithLabelValues(name, outcome(err)).Inc()
		if err != nil {
			status := httpStatusOf(err)
			if status >= 500 && status != http.StatusBadGateway && status != http.StatusGatewayTimeout && status != http.StatusNotImplemented {
				d.logger.Error("resource call failed", "route", name, "error", err)
			}
			writeJSON(w, status, map[string]string{"error": err.Error()})
			return
		}
		writeJSON(w, http.StatusOK, v)
	}
}

// writeDownload answers a resource that makes a file (a pprof export, a PGO
// profile): the file as an attachment named name, or the error as JSON with
// its status. Either way the call is counted under op.
func writeDownload(w http.ResponseWriter, op string, body []byte, name string, err error) {
	resourceCallsTotal.WithLabelValues(op, outcome(err)).Inc()
	if err != nil {
		writeJSON(w, httpStatusOf(err), map[string]string{"error": err.Error()})
		return
	}
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", name))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// params reads the query string, and for POST a form or JSON object body too.
func params(r *http.Request) (url.Values, error) {
	v := r.URL.Query()
	if r.Method != http.MethodPost || r.Body == nil {
		return v, nil
	}
	if strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
		var body map[string]any
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			return nil, userErrorf("request body is not a JSON object: %v", err)
		}
		for k, x := range body {
			switch x := x.(type) {
			case string:
				v.Add(k, x)
			case float64:
				v.Add(k, strconv.FormatFloat(x, 'f', -1, 64))
			case []any:
				for _, e := range x {
					if s, ok := e.(string); ok {
						v.Add(k, s)
					}
				}
			}
		}
		return v, nil
	}
	if err := r.ParseForm(); err != nil {
		return nil, userErrorf("cannot read the request body: %v", err)
	}
	for k, xs := range r.PostForm {
		v[k] = append(v[k], xs...)
	}
	return v, nil
}

// timeRange reads start and end in epoch milliseconds; absent, the last 24 hours.
func timeRange(v url.Values) (source.TimeRange, error) {
	now := time.Now()
	tr := source.TimeRange{From: now.Add(-defaultResourceLookback), To: now}
	for _, p := range []struct {
		name string
		dst  *time.Time
	}{{"start", &tr.From}, {"end", &tr.To}} {
		s := v.Get(p.name)
		if s == "" {
			continue
		}
		ms, err := strconv.ParseInt(s, 10, 64)
		if err != nil || ms < 0 {
			return tr, userErrorf("%s: %q is not a time in epoch milliseconds", p.name, s)
		}
		*p.dst = time.UnixMilli(ms).UTC()
	}
	if !tr.From.Before(tr.To) {
		return tr, userErrorf("start %d is not before end %d", tr.From.UnixMilli(), tr.To.UnixMilli())
	}
	return tr, nil
}

// labelsRequest reads the matchers (matchers, repeated, or selector), an
// optional profileTypeId and the time range of a label call.
func labelsRequest(r *http.Request) (source.LabelsRequest, url.Values, error) {
	v, err := params(r)
	if err != nil {
		return source.LabelsRequest{}, nil, err
	}
	tr, err := timeRange(v)
	if err != nil {
		return source.LabelsRequest{}, nil, err
	}
	raw := append(append([]string{}, v["matchers"]...), v["selector"]...)
	if len(raw) == 0 {
		raw = []string{"{}"}
	}
	var matchers []string
	for _, m := range raw {
		sel, err := query.ParseSelector(m)
		if err != nil {
			return source.LabelsRequest{}, nil, userErrorf("matchers: %v", err)
		}
		s := query.FormatSelector(sel)
		if pt := strings.TrimSpace(v.Get("profileTypeId")); pt != "" {
			if s, err = query.WithMatchers(s, profileTypeMatcher(pt)); err != nil {
				return source.LabelsRequest{}, nil, userErrorf("profileTypeId: %v", err)
			}
		}
		matchers = append(matchers, s)
	}
	return source.LabelsRequest{Matchers: matchers, Range: tr}, v, nil
}
