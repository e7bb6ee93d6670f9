// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Package detect tells which kind of profile server (model.ServerPyroscope
// or model.ServerParca) answers at a URL:
// Grafana Pyroscope (or anything else speaking its querier.v1 connect API,
// such as the embedded store) or Parca (its REST API), by probing one cheap
// read-only endpoint of each.
package detect

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/emberscope/emberscope/pkg/profile/model"
)

// ProbeTimeout bounds detection when ctx has no earlier deadline.
const ProbeTimeout = 5 * time.Second

// Detect probes the server at baseURL with client (which carries the
// datasource's authentication) and tells its kind. Both probes run at once
// within ProbeTimeout; the first one that recognises its server wins:
//
//   - Pyroscope: POST {baseURL}/querier.v1.QuerierService/ProfileTypes with
//     the JSON body {} answers 200 with a JSON object.
//   - Parca: GET {baseURL}/api/profiles/types answers 200 with a JSON object
//     holding "types".
//
// When neither does, the error tells what each probe got back.
func Detect(ctx context.Context, baseURL string, client *http.Client) (model.ServerKind, error) {
	base, err := model.ParseServerURL(baseURL)
	if err != nil {
		return "", fmt.Errorf("detect: %w", err)
	}
	if client == nil {
		client = http.DefaultClient
	}
	ctx, cancel := context.WithTimeout(ctx, ProbeTimeout)
	defer cancel()

	probes := []probe{pyroscopeProbe(base), parcaProbe(base)}
	results := make(chan probeResult, len(probes))
	for _, p := range probes {
		go func() { results <- p.run(ctx, client) }()
	}
	failures := make([]probeResult, 0, len(probes))
	for range probes {
		r := <-results
		if r.err == nil {
			return r.kind, nil
		}
		failures = append(failures, r)
	}
	return "", detectError(baseURL, failures)
}

// detectError explains why no probe recognised the server.
func detectError(baseURL string, failures []probeResult) error {
	var b strings.Builder
	fmt.Fprintf(&b, "detect: %s answers neither as Pyroscope nor as Parca", baseURL)
	auth := false
	for _, f := range failures {
		fmt.Fprintf(&b, "; %s probe (%s): %v", f.kind, f.call, f.err)
		var se *statusError
		if errors.As(f.err, &se) && (se.status == http.StatusUnauthorized || se.status == http.StatusForbidden) {
			auth = true
		}
	}
	if auth {
		b.WriteString("; the server refused access: check the datasource's authentication settings")
	}
	return errors.New(b.String())
}
