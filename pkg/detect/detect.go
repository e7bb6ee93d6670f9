// Package detect tells which kind of profile server answers at a URL:
// Grafana Pyroscope (or anything else speaking its querier.v1 connect API,
// such as the embedded store) or Parca (its REST API), by probing one cheap
// read-only endpoint of each.
package detect

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Kind is the kind of a profile server.
type Kind string

const (
	// Pyroscope is a server speaking Pyroscope's querier.v1 connect API.
	Pyroscope Kind = "pyroscope"
	// Parca is a Parca server's REST API.
	Parca Kind = "parca"
)

// ProbeTimeout bounds detection when ctx has no earlier deadline.
const ProbeTimeout = 5 * time.Second

// ParseKind reads a kind from settings: "pyroscope" or "parca", and "" or
// "auto" for "detect it" (Kind "").
func ParseKind(s string) (Kind, error) {
	switch k := Kind(strings.ToLower(strings.TrimSpace(s))); k {
	case "", "auto":
		return "", nil
	case Pyroscope, Parca:
		return k, nil
	}
	return "", fmt.Errorf("detect: unknown server kind %q: want pyroscope, parca or auto", s)
}

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
func Detect(ctx context.Context, baseURL string, client *http.Client) (Kind, error) {
	base, err := parseBase(baseURL)
	if err != nil {
		return "", err
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

// parseBase checks a server URL and drops a trailing slash.
func parseBase(raw string) (*url.URL, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return nil, errors.New("detect: the server URL is empty")
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("detect: server URL %q: %w", raw, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("detect: server URL %q: scheme must be http or https, got %q", raw, u.Scheme)
	}
	if u.Host == "" {
		return nil, fmt.Errorf("detect: server URL %q has no host", raw)
	}
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawPath, u.RawQuery, u.Fragment = "", "", ""
	return u, nil
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
