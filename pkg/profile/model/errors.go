// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package model

import (
	"errors"
	"net/http"
)

// ErrorKind classifies a failed call to a profile server, whichever server
// it was, so that the plugin can pick a status and the caller a fallback.
type ErrorKind uint8

const (
	// KindUnreachable: no connection to the server (refused, DNS, reset), or
	// the server said it is unavailable.
	KindUnreachable ErrorKind = iota + 1
	// KindTimeout: the server did not answer in time.
	KindTimeout
	// KindAuth: the server refused the credentials.
	KindAuth
	// KindBadRequest: the server rejected the request; the message is its reason.
	KindBadRequest
	// KindNotFound: the server has nothing at this URL: no such API, or
	// (Parca, which answers 404 for both) no data matching the request.
	KindNotFound
	// KindUnimplemented: the server does not implement the call.
	KindUnimplemented
	// KindServer: the server failed, or sent an answer that cannot be read.
	KindServer
)

// String names the kind in a few words.
func (k ErrorKind) String() string {
	switch k {
	case KindUnreachable:
		return "unreachable"
	case KindTimeout:
		return "timeout"
	case KindAuth:
		return "auth"
	case KindBadRequest:
		return "bad request"
	case KindNotFound:
		return "not found"
	case KindUnimplemented:
		return "unimplemented"
	case KindServer:
		return "server error"
	}
	return "unknown"
}

// HTTPStatus is the status Grafana shows for a query that failed this way.
func (k ErrorKind) HTTPStatus() int {
	switch k {
	case KindTimeout:
		return http.StatusGatewayTimeout
	case KindAuth:
		return http.StatusUnauthorized
	case KindBadRequest:
		return http.StatusBadRequest
	case KindNotFound:
		return http.StatusNotFound
	case KindUnimplemented:
		return http.StatusNotImplemented
	default:
		return http.StatusBadGateway
	}
}

// Error is a failed call to a profile server, from any client. The problem
// lies with the server or the request, not with the datasource: the plugin
// reports it to Grafana as a downstream error.
type Error struct {
	Kind ErrorKind
	// Msg is the whole message shown to the user.
	Msg string
	// Err is the cause (the client library's error, or the server's answer).
	Err error
}

func (e *Error) Error() string { return e.Msg }
func (e *Error) Unwrap() error { return e.Err }

// HTTPStatus is the status Grafana shows for the failed query.
func (e *Error) HTTPStatus() int { return e.Kind.HTTPStatus() }

// KindOf returns the kind of the *Error in err's chain, or 0 when there is none.
func KindOf(err error) ErrorKind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return 0
}
