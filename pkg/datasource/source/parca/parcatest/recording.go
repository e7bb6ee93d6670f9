// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Package parcatest replays recorded exchanges with a real Parca server's
// REST API (the recordings in internal/fixtures/parca, one NN-name.request.txt
// and NN-name.response.json per exchange) so that code talking to Parca can be
// tested without a Parca server.
package parcatest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/emberscope/emberscope/internal/fixtures"
)

// DefaultDir is where the recordings are: the repository's
// internal/fixtures/parca, as an absolute path.
var DefaultDir = fixtures.Parca()

// Exchange is one recorded request and the server's answer.
type Exchange struct {
	// Name is the file name stem, such as "14-query-range-labeled-step60s".
	Name   string
	Method string
	Path   string
	// Query holds the decoded query parameters, names in lowerCamel form.
	Query url.Values
	// RequestBody is the compacted JSON body of a POST, "" for none.
	RequestBody string
	Status      int
	ContentType string
	Body        []byte
}

// Load reads every exchange recorded in dir.
func Load(dir string) ([]Exchange, error) {
	reqs, err := filepath.Glob(filepath.Join(dir, "*.request.txt"))
	if err != nil {
		return nil, err
	}
	if len(reqs) == 0 {
		return nil, fmt.Errorf("parcatest: no *.request.txt recordings in %s", dir)
	}
	out := make([]Exchange, 0, len(reqs))
	for _, f := range reqs {
		ex, err := loadExchange(f)
		if err != nil {
			return nil, err
		}
		out = append(out, ex)
	}
	return out, nil
}

// loadExchange reads one request file and the response file beside it.
func loadExchange(reqFile string) (Exchange, error) {
	raw, err := os.ReadFile(reqFile)
	if err != nil {
		return Exchange{}, err
	}
	name := strings.TrimSuffix(filepath.Base(reqFile), ".request.txt")
	ex := Exchange{Name: name}
	head, body, _ := strings.Cut(string(raw), "\nBODY:")
	for _, line := range strings.Split(head, "\n") {
		key, val, ok := strings.Cut(line, ": ")
		if !ok {
			continue
		}
		val = strings.TrimSpace(val)
		switch key {
		case "METHOD":
			ex.Method = val
		case "PATH":
			ex.Path = val
		case "QUERY STRING (as sent)":
			if val != "(none)" {
				q, err := url.ParseQuery(val)
				if err != nil {
					return Exchange{}, fmt.Errorf("parcatest: %s: query string: %w", name, err)
				}
				ex.Query = NormalizeQuery(q)
			}
		case "HTTP STATUS":
			code, _, _ := strings.Cut(val, " ")
			if ex.Status, err = strconv.Atoi(code); err != nil {
				return Exchange{}, fmt.Errorf("parcatest: %s: status %q: %w", name, val, err)
			}
		case "RESPONSE CONTENT-TYPE":
			ex.ContentType = val
		}
	}
	if ex.Method == "" || ex.Path == "" || ex.Status == 0 {
		return Exchange{}, fmt.Errorf("parcatest: %s: METHOD, PATH or HTTP STATUS missing", name)
	}
	if ex.Query == nil {
		ex.Query = url.Values{}
	}
	ex.RequestBody = compactJSON(strings.TrimSpace(body))
	if ex.Body, err = os.ReadFile(filepath.Join(filepath.Dir(reqFile), name+".response.json")); err != nil {
		return Exchange{}, err
	}
	if strings.HasPrefix(ex.ContentType, "text/plain") {
		ex.Body = bytes.TrimRight(ex.Body, "\n")
		ex.Body = append(ex.Body, '\n')
	}
	return ex, nil
}

// compactJSON compacts a JSON body so bodies compare by content; "(none)"
// and non-JSON text are returned as they are ("" for none).
func compactJSON(s string) string {
	if s == "" || s == "(none)" {
		return ""
	}
	var b bytes.Buffer
	if json.Compact(&b, []byte(s)) != nil {
		return s
	}
	return b.String()
}

// NormalizeQuery renames snake_case parameters to the lowerCamel form
// (profile_type → profileType, merge.report_type → merge.reportType), as
// Parca accepts both. Enum values are not normalized.
func NormalizeQuery(q url.Values) url.Values {
	out := make(url.Values, len(q))
	for k, vs := range q {
		segs := strings.Split(k, ".")
		for i, s := range segs {
			segs[i] = lowerCamel(s)
		}
		nk := strings.Join(segs, ".")
		out[nk] = append(out[nk], vs...)
	}
	return out
}

// lowerCamel turns snake_case into lowerCamelCase.
func lowerCamel(s string) string {
	if !strings.Contains(s, "_") {
		return s
	}
	parts := strings.Split(s, "_")
	for i := 1; i < len(parts); i++ {
		if parts[i] != "" {
			parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
		}
	}
	return strings.Join(parts, "")
}
