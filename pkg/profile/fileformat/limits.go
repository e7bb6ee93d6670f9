// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package fileformat

import (
	"errors"
	"fmt"
)

// Limits bound one opened file. They are larger than ingest's
// (pkg/store/limits): a file is opened once by someone who asked for it,
// not pushed every few seconds by every process of a fleet.
type Limits struct {
	// MaxFileBytes bounds the file as received (gzipped or not).
	MaxFileBytes int64
	// MaxDecodedBytes bounds the file once decompressed.
	MaxDecodedBytes int64
	// MaxSamples bounds the samples of the decoded profile.
	MaxSamples int
	// MaxStackDepth truncates deeper stacks, keeping their root-side frames
	// (as ingest does); the File says how many were truncated.
	MaxStackDepth int
}

// DefaultLimits are the limits of files: 64 MiB received, 512 MiB
// decompressed, 4,000,000 samples, stacks of 4,096 frames.
func DefaultLimits() Limits {
	return Limits{
		MaxFileBytes:    64 << 20,
		MaxDecodedBytes: 512 << 20,
		MaxSamples:      4_000_000,
		MaxStackDepth:   4096,
	}
}

// Error is a refused file: which file and what was wrong with it.
type Error struct {
	File string
	Msg  string
	// TooLarge tells a file over a limit from a malformed one.
	TooLarge bool
}

func (e *Error) Error() string {
	if e.File == "" {
		return e.Msg
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// IsTooLarge reports whether err refuses a file for passing a limit.
func IsTooLarge(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.TooLarge
}

func errorf(file, format string, args ...any) *Error {
	return &Error{File: file, Msg: fmt.Sprintf(format, args...)}
}

func tooLarge(file, format string, args ...any) *Error {
	return &Error{File: file, Msg: fmt.Sprintf(format, args...), TooLarge: true}
}
