// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package ingest

import (
	"errors"
	"fmt"
)

// Reasons an ingest is refused, used as the metrics' reason label.
const (
	ReasonBadName    = "bad_name"
	ReasonBadTime    = "bad_time"
	ReasonBadFormat  = "bad_format"
	ReasonBadProfile = "bad_profile"
	ReasonBadLabels  = "bad_labels"
	ReasonTooLarge   = "too_large"
	ReasonTooOld     = "too_old"
	ReasonStorage    = "storage"
	ReasonBadRequest = "bad_request"
)

// Error is an ingest failure with the reason it is counted under. Every
// reason but ReasonStorage is the client's fault.
type Error struct {
	Reason string
	Err    error
}

func (e *Error) Error() string { return e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

func errorf(reason, format string, args ...any) *Error {
	return &Error{Reason: reason, Err: fmt.Errorf(format, args...)}
}

// ReasonOf returns the reason of err ("internal" when it has none).
func ReasonOf(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Reason
	}
	return "internal"
}
