// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package detect

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"

	"github.com/emberscope/emberscope/pkg/profile/model"
)

// maxProbeBody bounds how much of a probe's answer is read.
const maxProbeBody = 4 << 20

// probe is one request that recognises one kind of server.
type probe struct {
	kind   model.ServerKind
	method string
	url    string
	body   string
	header http.Header
	// recognise checks a 200 JSON object answer.
	recognise func(obj map[string]json.RawMessage) error
}

// probeResult is a probe's outcome: err is nil when it recognised its server.
type probeResult struct {
	kind model.ServerKind
	call string
	err  error
}

// statusError is a probe answer with an unexpected HTTP status.
type statusError struct {
	status      int
	contentType string
}

func (e *statusError) Error() string {
	if e.contentType == "" {
		return fmt.Sprintf("HTTP %d", e.status)
	}
	return fmt.Sprintf("HTTP %d (%s)", e.status, e.contentType)
}

// pyroscopeProbe asks Pyroscope's connect API for its profile types. An
// empty server answers {}.
func pyroscopeProbe(base *url.URL) probe {
	return probe{
		kind:   model.ServerPyroscope,
		method: http.MethodPost,
		url:    base.String() + "/querier.v1.QuerierService/ProfileTypes",
		body:   "{}",
		header: http.Header{"Content-Type": {"application/json"}, "Connect-Protocol-Version": {"1"}},
		recognise: func(obj map[string]json.RawMessage) error {
			for k := range obj {
				if k != "profileTypes" {
					return fmt.Errorf("the JSON answer has %q, not only profileTypes", k)
				}
			}
			return nil
		},
	}
}

// parcaProbe asks Parca's REST API for its profile types; Parca always
// writes the "types" list, empty or not.
func parcaProbe(base *url.URL) probe {
	return probe{
		kind:   model.ServerParca,
		method: http.MethodGet,
		url:    base.String() + "/api/profiles/types",
		header: http.Header{"Accept": {"application/json"}},
		recognise: func(obj map[string]json.RawMessage) error {
			raw, ok := obj["types"]
			if !ok {
				return errors.New(`the JSON answer has no "types"`)
			}
			var list []json.RawMessage
			if err := json.Unmarshal(raw, &list); err != nil {
				return errors.New(`"types" is not a list`)
			}
			return nil
		},
	}
}

// run sends the probe and checks the answer.
func (p probe) run(ctx context.Context, client *http.Client) probeResult {
	res := probeResult{kind: p.kind, call: p.method + " " + p.url}
	var body io.Reader
	if p.body != "" {
		body = strings.NewReader(p.body)
	}
	req, err := http.NewRequestWithContext(ctx, p.method, p.url, body)
	if err != nil {
		res.err = err
		return res
	}
	for k, vs := range p.header {
		req.Header[k] = vs
	}
	resp, err := client.Do(req)
	if err != nil {
		res.err = err
		return res
	}
	defer resp.Body.Close()
	ct := resp.Header.Get("Content-Type")
	if resp.StatusCode != http.StatusOK {
		res.err = &statusError{status: resp.StatusCode, contentType: ct}
		return res
	}
	if mt, _, _ := mime.ParseMediaType(ct); mt != "application/json" {
		res.err = fmt.Errorf("HTTP 200 but Content-Type %q, not application/json", ct)
		return res
	}
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxProbeBody))
	if err != nil {
		res.err = fmt.Errorf("reading the answer: %w", err)
		return res
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		res.err = fmt.Errorf("HTTP 200 but the body is not a JSON object: %w", err)
		return res
	}
	if err := p.recognise(obj); err != nil {
		res.err = err
	}
	return res
}
