// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package ingest

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/emberscope/emberscope/pkg/profile/model"
	"github.com/emberscope/emberscope/pkg/profile/pprofconv"
	"github.com/emberscope/emberscope/pkg/store/limits"
	"github.com/emberscope/emberscope/pkg/store/storage"
)

// sampleTypeConfig is one entry of pyroscope-go's sample_type_config form field.
type sampleTypeConfig struct {
	Units       string `json:"units"`
	Aggregation string `json:"aggregation"`
	DisplayName string `json:"display-name"`
	Sampled     bool   `json:"sampled"`
	Cumulative  bool   `json:"cumulative"`
}

// ServeHTTP handles POST /ingest as Pyroscope documents it.
func (in *Ingester) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "method not allowed: use POST", http.StatusMethodNotAllowed)
		return
	}
	if err := in.handleIngest(w, r); err != nil {
		reason := ReasonOf(err)
		in.m.IngestErrors.WithLabelValues(reason).Inc()
		if st, ok := ingestStatus(err); ok {
			writeError(w, st, statusCode(st), err)
			return
		}
		status, code := http.StatusBadRequest, "invalid_argument"
		switch reason {
		case ReasonStorage, "internal":
			status, code = http.StatusInternalServerError, "internal"
			in.log.Error("ingest failed", "err", err)
		case ReasonTooLarge:
			status, code = http.StatusRequestEntityTooLarge, "resource_exhausted"
		case ReasonBadProfile, ReasonTooOld:
			// Pyroscope answers a profile it cannot parse with 422 and
			// code "unknown" (recording 38).
			status, code = http.StatusUnprocessableEntity, "unknown"
		}
		writeError(w, status, code, err)
		return
	}
	w.WriteHeader(http.StatusOK)
}

func (in *Ingester) handleIngest(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	service, labels, err := ParseAppName(q.Get("name"))
	if err != nil {
		return err
	}
	// The name's service, unless its labels name a service_name of their
	// own (which wins, as a label given explicitly; one series never holds a
	// label twice).
	if labels.Get(model.LabelNameServiceName) == "" {
		labels = append(labels, storage.Label{Name: model.LabelNameServiceName, Value: service})
	}
	// Pyroscope files profiles sent without a spyName under pyroscope_spy="unknown".
	spy := q.Get("spyName")
	if spy == "" {
		spy = "unknown"
	}
	if labels.Get(model.LabelNameSpy) == "" {
		labels = append(labels, storage.Label{Name: model.LabelNameSpy, Value: spy})
	}
	labels.Sort()
	var from time.Time
	if s := q.Get("from"); s != "" {
		if from, err = ParseUnixTime(s); err != nil {
			return err
		}
	}
	if s := q.Get("until"); s != "" {
		if _, err = ParseUnixTime(s); err != nil {
			return err
		}
	}
	sampleRate := int64(100)
	if s := q.Get("sampleRate"); s != "" {
		if sampleRate, err = strconv.ParseInt(s, 10, 64); err != nil || sampleRate <= 0 {
			return errorf(ReasonBadRequest, "invalid sampleRate %q: want a positive integer (Hz)", s)
		}
	}
	body, config, isForm, err := in.readBody(w, r)
	if err != nil {
		return err
	}
	format := q.Get("format")
	if format == "" {
		if isForm || looksLikePprof(body) {
			format = "pprof"
		} else {
			format = "folded"
		}
	}
	inp := Input{Labels: labels, DefaultTime: from, Naming: pprofconv.Naming{Fallback: service}}
	switch format {
	case "pprof":
		p, size, err := in.parsePprof(body)
		if size > 0 {
			in.m.ReceivedUncompressedBytes.WithLabelValues("ingest").Add(float64(size))
			in.m.ProfileSizeBytes.WithLabelValues("uncompressed").Observe(float64(size))
		}
		if err != nil {
			return err
		}
		inp.Profile = p
		if config != nil {
			// The display names name the profiles; the cumulative flag is
			// ignored, as Pyroscope ignores it: values are stored as sent.
			inp.Naming.Hints = make(map[string]string)
			for st, c := range config {
				inp.Naming.Hints[st] = c.DisplayName
			}
		}
	case "folded", "collapsed":
		in.m.ReceivedUncompressedBytes.WithLabelValues("ingest").Add(float64(len(body)))
		in.m.ProfileSizeBytes.WithLabelValues("uncompressed").Observe(float64(len(body)))
		if err := in.checkFoldedSize(body); err != nil {
			return err
		}
		p, hints, err := ParseFolded(body, q.Get("units"), sampleRate)
		if err != nil {
			return err
		}
		inp.Profile, inp.Naming.Hints = p, hints
	default:
		return errorf(ReasonBadFormat, "unsupported format %q: want pprof or folded", format)
	}
	return in.StoreContext(r.Context(), []Input{inp})
}

// readBody returns the profile bytes (gzip kept when the profile itself is
// gzipped), pyroscope-go's sample_type_config when sent, and whether the
// body was a multipart form.
func (in *Ingester) readBody(w http.ResponseWriter, r *http.Request) ([]byte, map[string]sampleTypeConfig, bool, error) {
	counter := &countingReader{r: http.MaxBytesReader(w, r.Body, in.maxBody)}
	var rd io.Reader = counter
	if strings.EqualFold(r.Header.Get("Content-Encoding"), "gzip") {
		zr, err := in.gunzipBody(counter)
		if err != nil {
			return nil, nil, false, err
		}
		rd = zr
	}
	mt, params, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	defer func() {
		in.m.ReceivedCompressedBytes.WithLabelValues("ingest").Add(float64(counter.n))
		in.m.ProfileSizeBytes.WithLabelValues("compressed").Observe(float64(counter.n))
	}()
	if mt != "multipart/form-data" {
		data, err := io.ReadAll(rd)
		if err != nil {
			return nil, nil, false, readError(err)
		}
		return data, nil, false, nil
	}
	if params["boundary"] == "" {
		return nil, nil, true, errorf(ReasonBadRequest, "invalid multipart body: no boundary in Content-Type")
	}
	mr := multipart.NewReader(rd, params["boundary"])
	var profileData []byte
	var config map[string]sampleTypeConfig
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nil, true, errorf(ReasonBadRequest, "invalid multipart body: %v", err)
		}
		data, err := io.ReadAll(part)
		if err != nil {
			return nil, nil, true, readError(err)
		}
		switch part.FormName() {
		case "profile":
			profileData = data
		case "sample_type_config":
			if err := json.Unmarshal(data, &config); err != nil {
				return nil, nil, true, errorf(ReasonBadRequest, "invalid sample_type_config: %v", err)
			}
		}
	}
	if profileData == nil {
		return nil, nil, true, errorf(ReasonBadRequest, "invalid multipart body: no \"profile\" field")
	}
	return profileData, config, true, nil
}

func readError(err error) error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return limitError("", limits.TooLarge("max-body-bytes", "request body", fmt.Sprintf("larger than %d bytes", mbe.Limit), fmt.Sprintf("%d bytes", mbe.Limit)))
	}
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return errorf(ReasonBadRequest, "reading request body: %v", err)
}

// looksLikePprof reports whether data is gzip or starts like a pprof message.
func looksLikePprof(data []byte) bool {
	if len(data) >= 2 && data[0] == 0x1f && data[1] == 0x8b {
		return true
	}
	// A pprof starts with field 1 (sample_type, length-delimited): 0x0a.
	return len(data) > 0 && data[0] == 0x0a
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// writeError answers with a connect-style JSON error, as Pyroscope's
// /ingest does: {"code": "...", "message": "..."}.
func writeError(w http.ResponseWriter, status int, code string, err error) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	}{code, err.Error()})
}

// statusCode is the connect-style error code written beside an HTTP status.
func statusCode(status int) string {
	switch status {
	case http.StatusRequestEntityTooLarge, http.StatusInsufficientStorage, http.StatusTooManyRequests:
		return "resource_exhausted"
	case http.StatusServiceUnavailable:
		return "unavailable"
	case http.StatusUnprocessableEntity:
		return "unknown"
	case http.StatusUnauthorized:
		return "unauthenticated"
	case http.StatusForbidden:
		return "permission_denied"
	}
	return "invalid_argument"
}
