// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Package pyroscopereplay reads the exchanges recorded with a real Grafana
// Pyroscope v2.2.1 (internal/fixtures/pyroscope: NN-name.request.txt and
// NN-name.response.json per exchange, the pushed pprof files beside them)
// and replays them: Server answers querier.v1 calls with the recorded
// answers, so that a client can be tested against what Pyroscope really
// says; Load and Exchange let a test send the recorded requests to another
// server and compare its answers.
package pyroscopereplay

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Exchange is one recorded request and Pyroscope's answer.
type Exchange struct {
	// Name is the file name stem, such as "15-merge-labeled-cpu".
	Name string
	// Number is the NN of the name: the order the exchanges were made in.
	Number int
	Method string
	// Path is the request path: "/ingest" or "/querier.v1.QuerierService/LabelNames".
	Path string
	// RawQuery is the query string as sent ("" for none).
	RawQuery string
	// ContentType of the request body ("" for none).
	ContentType string
	// Body is the request body: the recorded JSON, the bytes of the pushed
	// file it names, or the bytes a note describes.
	Body []byte
	// BodyFile is the pushed file the body was read from, relative to the
	// recordings folder ("pushed-profiles/labeled.cpu.redated.pb.gz"), or "".
	BodyFile string
	// Status is the HTTP status Pyroscope answered.
	Status int
	// ResponseHeaders are the recorded interesting response headers.
	ResponseHeaders map[string]string
	// Response is the recorded response body (JSON re-indented; empty for none).
	Response []byte
}

// Query returns the decoded query parameters.
func (e *Exchange) Query() url.Values {
	q, _ := url.ParseQuery(e.RawQuery)
	return q
}

// RPC returns the querier or pusher method name of a connect call
// ("SelectMergeStacktraces"), or "" for other paths.
func (e *Exchange) RPC() string {
	if !strings.Contains(e.Path, "Service/") {
		return ""
	}
	return e.Path[strings.LastIndex(e.Path, "/")+1:]
}

// IsError reports whether the answer is a connect error ({"code", "message"}).
func (e *Exchange) IsError() bool { return e.Status != 200 && len(e.Response) > 0 }

// ErrorBody is a recorded connect error answer.
type ErrorBody struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// Error decodes a recorded error answer.
func (e *Exchange) Error() (ErrorBody, error) {
	var eb ErrorBody
	if err := json.Unmarshal(e.Response, &eb); err != nil {
		return eb, fmt.Errorf("pyroscopereplay: %s: error body: %w", e.Name, err)
	}
	return eb, nil
}

// Load reads every exchange recorded in dir, in the order they were made.
func Load(dir string) ([]Exchange, error) {
	reqs, err := filepath.Glob(filepath.Join(dir, "*.request.txt"))
	if err != nil {
		return nil, err
	}
	if len(reqs) == 0 {
		return nil, fmt.Errorf("pyroscopereplay: no *.request.txt recordings in %s", dir)
	}
	out := make([]Exchange, 0, len(reqs))
	for _, f := range reqs {
		ex, err := loadExchange(dir, f)
		if err != nil {
			return nil, err
		}
		out = append(out, ex)
	}
	return out, nil
}

// loadExchange reads one request file and the response file beside it.
func loadExchange(dir, reqFile string) (Exchange, error) {
	raw, err := os.ReadFile(reqFile)
	if err != nil {
		return Exchange{}, err
	}
	name := strings.TrimSuffix(filepath.Base(reqFile), ".request.txt")
	ex := Exchange{Name: name, ResponseHeaders: map[string]string{}}
	num, _, _ := strings.Cut(name, "-")
	if ex.Number, err = strconv.Atoi(num); err != nil {
		return ex, fmt.Errorf("pyroscopereplay: %s: name does not start with a number", name)
	}
	fail := func(format string, args ...any) (Exchange, error) {
		return Exchange{}, fmt.Errorf("pyroscopereplay: %s: %s", name, fmt.Sprintf(format, args...))
	}
	lines := strings.Split(string(raw), "\n")
	first := strings.Fields(lines[0])
	if len(first) != 2 {
		return fail("first line %q is not METHOD PATH", lines[0])
	}
	ex.Method, ex.Path = first[0], first[1]
	var jsonBody []string
	inJSON := false
	for _, line := range lines[1:] {
		if inJSON {
			if strings.HasPrefix(line, "HTTP status: ") {
				inJSON = false
			} else {
				jsonBody = append(jsonBody, line)
				continue
			}
		}
		switch {
		case strings.HasPrefix(line, "query (as sent): "):
			ex.RawQuery = strings.TrimPrefix(line, "query (as sent): ")
		case strings.HasPrefix(line, "request body ("):
			// "request body (application/json):" then the JSON lines.
			ct, _, _ := strings.Cut(strings.TrimPrefix(line, "request body ("), ")")
			ex.ContentType = ct
			inJSON = true
		case strings.HasPrefix(line, "request body: the bytes of "):
			rest := strings.TrimPrefix(line, "request body: the bytes of ")
			file, ct, ok := strings.Cut(rest, " (")
			if !ok {
				return fail("body line %q names no content type", line)
			}
			ex.BodyFile = file
			ex.ContentType = strings.TrimSuffix(ct, ")")
			if ex.Body, err = os.ReadFile(filepath.Join(dir, filepath.FromSlash(file))); err != nil {
				return fail("pushed file: %v", err)
			}
		case strings.HasPrefix(line, "note: body: the "):
			// note: body: the 21 bytes 'this is not a profile'
			_, quoted, ok := strings.Cut(line, "'")
			if !ok || !strings.HasSuffix(quoted, "'") {
				return fail("body note %q has no quoted bytes", line)
			}
			ex.Body = []byte(strings.TrimSuffix(quoted, "'"))
		case strings.HasPrefix(line, "HTTP status: "):
			if ex.Status, err = strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(line, "HTTP status: "))); err != nil {
				return fail("status: %v", err)
			}
		case strings.HasPrefix(line, "response headers: "):
			if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "response headers: ")), &ex.ResponseHeaders); err != nil {
				return fail("response headers: %v", err)
			}
		}
	}
	if len(jsonBody) > 0 {
		var b bytes.Buffer
		if err := json.Compact(&b, []byte(strings.Join(jsonBody, "\n"))); err != nil {
			return fail("request JSON: %v", err)
		}
		ex.Body = b.Bytes()
	}
	if ex.Status == 0 {
		return fail("no HTTP status")
	}
	if ex.Response, err = os.ReadFile(filepath.Join(dir, name+".response.json")); err != nil {
		return Exchange{}, err
	}
	return ex, nil
}
