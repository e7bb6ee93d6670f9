// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package parca

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/emberscope/emberscope/pkg/profile/model"
)

// gRPC codes that appear in Parca's error bodies.
const (
	grpcInvalidArgument = 3
	grpcNotFound        = 5
	grpcUnimplemented   = 12
)

// APIError is a non-200 answer of Parca's REST API: the cause of the
// *model.Error the client returns for it.
type APIError struct {
	// Method and Path name the call, without the query string.
	Method string
	Path   string
	// StatusCode is the HTTP status.
	StatusCode int
	// Code is the gRPC code of a JSON error body, -1 when the body had none.
	Code int
	// Message is Parca's message, or the start of a non-JSON body.
	Message string
}

// Error reads as advice to the user: Parca's own message for a rejected
// request, an explanation for the statuses that need one.
func (e *APIError) Error() string {
	call := e.Method + " " + e.Path
	switch {
	case e.StatusCode == http.StatusBadRequest || e.Code == grpcInvalidArgument:
		return fmt.Sprintf("parca rejected the request (%s): %s", call, e.Message)
	case e.StatusCode == http.StatusNotFound:
		return fmt.Sprintf("parca answered 404 Not Found (%s): no data matches the profile type, selector "+
			"and time range, or the server has no such endpoint (is the URL that of a Parca server?)", call)
	case e.StatusCode == http.StatusNotImplemented || e.Code == grpcUnimplemented:
		return fmt.Sprintf("parca does not implement %s (HTTP 501: %s); this Parca version lacks the call, "+
			"so the datasource cannot offer what needs it", call, e.Message)
	case e.StatusCode == http.StatusUnauthorized || e.StatusCode == http.StatusForbidden:
		return fmt.Sprintf("parca refused access (%s): HTTP %d %s; check the datasource's authentication settings",
			call, e.StatusCode, e.Message)
	case e.Code >= 0:
		return fmt.Sprintf("parca failed (%s): HTTP %d, gRPC code %d: %s", call, e.StatusCode, e.Code, e.Message)
	default:
		return fmt.Sprintf("parca failed (%s): HTTP %d: %s", call, e.StatusCode, e.Message)
	}
}

// kind classifies the answer: Parca's 404 (no data, or no such endpoint:
// Parca does not tell them apart) is model.KindNotFound.
func (e *APIError) kind() model.ErrorKind {
	switch {
	case e.StatusCode == http.StatusBadRequest || e.Code == grpcInvalidArgument:
		return model.KindBadRequest
	case e.StatusCode == http.StatusNotFound || e.Code == grpcNotFound:
		return model.KindNotFound
	case e.StatusCode == http.StatusNotImplemented || e.Code == grpcUnimplemented:
		return model.KindUnimplemented
	case e.StatusCode == http.StatusUnauthorized || e.StatusCode == http.StatusForbidden:
		return model.KindAuth
	case e.StatusCode == http.StatusGatewayTimeout:
		return model.KindTimeout
	case e.StatusCode == http.StatusServiceUnavailable || e.StatusCode == http.StatusBadGateway:
		return model.KindUnreachable
	}
	return model.KindServer
}

// isNotFound reports a *model.Error of kind KindNotFound: for Parca, no data.
func isNotFound(err error) bool { return model.KindOf(err) == model.KindNotFound }

// transportError explains a request that got no answer. Cancellation by
// the caller is returned as is.
func transportError(base, method, path string, err error) error {
	if errors.Is(err, context.Canceled) {
		return err
	}
	// The *url.Error repeats the whole URL; its cause is what matters.
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	var ne net.Error
	if errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout()) {
		return &model.Error{Kind: model.KindTimeout, Msg: fmt.Sprintf("parca server at %s did not answer in time (%s %s): %v", base, method, path, err), Err: err}
	}
	return &model.Error{Kind: model.KindUnreachable, Msg: fmt.Sprintf("cannot reach the parca server at %s (%s %s): %v", base, method, path, err), Err: err}
}

// maxErrorText bounds how much of a non-JSON error body goes into a message.
const maxErrorText = 200

// newAPIError reads a non-200 answer: a JSON {"code","message"} body when
// the Content-Type says JSON, otherwise the start of the text. The
// *model.Error it returns has the *APIError as its cause.
func newAPIError(method, path string, status int, contentType string, body []byte) *model.Error {
	e := readAPIError(method, path, status, contentType, body)
	return &model.Error{Kind: e.kind(), Msg: e.Error(), Err: e}
}

func readAPIError(method, path string, status int, contentType string, body []byte) *APIError {
	e := &APIError{Method: method, Path: path, StatusCode: status, Code: -1}
	if mt, _, err := mime.ParseMediaType(contentType); err == nil && mt == "application/json" {
		var eb errorBody
		if json.Unmarshal(body, &eb) == nil && (eb.Code != nil || eb.Message != "") {
			if eb.Code != nil {
				e.Code = *eb.Code
			}
			e.Message = eb.Message
			return e
		}
	}
	text := strings.TrimSpace(string(body))
	if len(text) > maxErrorText {
		text = text[:maxErrorText] + "…"
	}
	if text == "" {
		text = http.StatusText(status)
	}
	e.Message = text
	return e
}
