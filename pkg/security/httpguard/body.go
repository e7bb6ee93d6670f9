// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package httpguard

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// ConnectBody bounds the body of connect unary requests before the connect
// handler sees them: at most maxBody bytes as received, and, when it is
// gzip-compressed (Content-Encoding), at most maxDecompressed bytes once
// decompressed. Both are answered 413 with a connect error naming the
// limit, never cut. The decompressed size is measured before anything is
// kept, so a small body that inflates hugely costs no memory. 0 turns a
// limit off.
func ConnectBody(maxBody, maxDecompressed int64, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			next.ServeHTTP(w, r)
			return
		}
		if maxBody > 0 && r.ContentLength > maxBody {
			tooLarge(w, "max-body-bytes", fmt.Sprintf("request body of %d bytes", r.ContentLength), maxBody)
			return
		}
		var body io.Reader = r.Body
		if maxBody > 0 {
			body = http.MaxBytesReader(w, r.Body, maxBody)
		}
		raw, err := io.ReadAll(body)
		if err != nil {
			var mbe *http.MaxBytesError
			if errors.As(err, &mbe) {
				tooLarge(w, "max-body-bytes", fmt.Sprintf("request body larger than %d bytes", maxBody), maxBody)
				return
			}
			connectError(w, http.StatusBadRequest, "invalid_argument", fmt.Sprintf("reading request body: %v", err))
			return
		}
		if enc := r.Header.Get("Content-Encoding"); strings.EqualFold(enc, "gzip") {
			n, err := gzipSize(raw, maxDecompressed)
			switch {
			case err != nil:
				connectError(w, http.StatusBadRequest, "invalid_argument", fmt.Sprintf("invalid gzip request body: %v", err))
				return
			case maxDecompressed > 0 && n > maxDecompressed:
				tooLarge(w, "max-decompressed-bytes", fmt.Sprintf("decompressed request body of more than %d bytes", maxDecompressed), maxDecompressed)
				return
			}
			zr, _ := gzip.NewReader(bytes.NewReader(raw))
			out := bytes.NewBuffer(make([]byte, 0, n))
			if _, err := io.Copy(out, zr); err != nil {
				connectError(w, http.StatusBadRequest, "invalid_argument", fmt.Sprintf("invalid gzip request body: %v", err))
				return
			}
			raw = out.Bytes()
			r.Header.Del("Content-Encoding")
		}
		r.Body = io.NopCloser(bytes.NewReader(raw))
		r.ContentLength = int64(len(raw))
		next.ServeHTTP(w, r)
	})
}

// gzipSize returns the decompressed size of data, reading at most max+1
// bytes (max 0: all of it) into a small reused buffer.
func gzipSize(data []byte, max int64) (int64, error) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return 0, err
	}
	var rd io.Reader = zr
	if max > 0 {
		rd = io.LimitReader(zr, max+1)
	}
	return io.Copy(io.Discard, rd)
}

func tooLarge(w http.ResponseWriter, limit, what string, max int64) {
	connectError(w, http.StatusRequestEntityTooLarge, "resource_exhausted",
		fmt.Sprintf("%s exceeds the limit %d bytes (-%s)", what, max, limit))
}

// connectError answers in the connect protocol's error format, which
// connect clients decode whatever the HTTP status.
func connectError(w http.ResponseWriter, status int, code, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Connection", "close")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"code": code, "message": msg})
}

// Error answers status with msg: in the connect protocol's error format
// when r is a connect request (so connect clients show the message), as
// plain text otherwise.
func Error(w http.ResponseWriter, r *http.Request, status int, msg string) {
	if isConnect(r) {
		connectError(w, status, codeOf(status), msg)
		return
	}
	http.Error(w, msg, status)
}

func isConnect(r *http.Request) bool {
	ct := r.Header.Get("Content-Type")
	return r.Header.Get("Connect-Protocol-Version") != "" || strings.HasPrefix(ct, "application/proto") ||
		strings.HasPrefix(ct, "application/json") || strings.HasPrefix(ct, "application/connect")
}

func codeOf(status int) string {
	switch status {
	case http.StatusUnauthorized:
		return "unauthenticated"
	case http.StatusForbidden:
		return "permission_denied"
	case http.StatusTooManyRequests, http.StatusRequestEntityTooLarge:
		return "resource_exhausted"
	case http.StatusBadRequest:
		return "invalid_argument"
	}
	return "unknown"
}
