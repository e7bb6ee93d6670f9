// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package pprofconv

import (
	"fmt"

	"github.com/google/pprof/profile"

	"github.com/emberscope/emberscope/pkg/profile/model"
)

// lineName is the frame name of one line of a location.
// It is the function's name as Pyroscope shows it (model.FunctionName).
func lineName(ln profile.Line) string {
	if ln.Function == nil {
		return model.UnknownFunction
	}
	return model.FunctionName(ln.Function.Name)
}

// addressName names a location that has no line information.
func addressName(loc *profile.Location) string { return addressFrame(loc.Address) }

// addressFrame is the frame name of an address without line information.
func addressFrame(address uint64) string { return fmt.Sprintf("0x%x", address) }

// LocationFrames appends the frame names of loc, leaf first: the innermost
// inlined function first, the caller last.
func LocationFrames(dst []string, loc *profile.Location) []string {
	if len(loc.Line) == 0 {
		return append(dst, addressName(loc))
	}
	for _, ln := range loc.Line {
		dst = append(dst, lineName(ln))
	}
	return dst
}
