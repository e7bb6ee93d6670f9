// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/grafana/grafana-plugin-sdk-go/backend"

	"github.com/emberscope/emberscope/pkg/datasource/query"
	"github.com/emberscope/emberscope/pkg/datasource/source"
	"github.com/emberscope/emberscope/pkg/profile/model"
)

// userError is a mistake in the query itself: shown as is, status 400.
type userError struct{ msg string }

func (e *userError) Error() string { return e.msg }

func userErrorf(format string, args ...any) error {
	return &userError{msg: fmt.Sprintf(format, args...)}
}

// errorResponse turns the error of one query into the response Grafana shows
// under its refId: the message, a status and who is to blame. A profile
// server's *model.Error (from either client) is reported as the SDK's
// downstream error, with the status of its kind.
func errorResponse(err error) backend.DataResponse {
	var (
		ue *userError
		qe *query.Error
		me *model.Error
	)
	switch {
	case errors.As(err, &ue), errors.As(err, &qe):
		return backend.DataResponse{Error: err, Status: backend.StatusBadRequest, ErrorSource: backend.ErrorSourceDownstream}
	case errors.As(err, &me):
		return backend.DataResponse{Error: backend.DownstreamError(err), Status: backend.Status(me.HTTPStatus()), ErrorSource: backend.ErrorSourceDownstream}
	case errors.Is(err, context.Canceled):
		return backend.DataResponse{Error: err, Status: backend.Status(499), ErrorSource: backend.ErrorSourceDownstream}
	case errors.Is(err, context.DeadlineExceeded):
		return backend.DataResponse{Error: err, Status: backend.StatusTimeout, ErrorSource: backend.ErrorSourceDownstream}
	case backend.IsDownstreamError(err):
		return backend.DataResponse{Error: err, Status: backend.StatusBadGateway, ErrorSource: backend.ErrorSourceDownstream}
	default:
		return backend.DataResponse{Error: err, Status: backend.StatusInternal, ErrorSource: backend.ErrorSourcePlugin}
	}
}

// httpStatusOf is the status of an error for resource calls: a rules
// server's refusal keeps its own status, a role that may not change rules
// is 403.
func httpStatusOf(err error) int {
	var (
		refusal   *source.RuleRefusal
		forbidden *forbiddenError
	)
	switch {
	case errors.As(err, &refusal):
		return refusal.Status
	case errors.As(err, &forbidden):
		return http.StatusForbidden
	}
	return int(errorResponse(err).Status)
}
