// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Package goroutinelabels reads the pprof labels of the calling goroutine
// from the runtime's own goroutine profile (runtime/pprof, debug=1), which
// prints each goroutine's labels beside its stack. Tests use it to see what a
// CPU profile would attribute to the goroutine, without burning CPU and
// without trusting this module's code.
package goroutinelabels

import (
	"bytes"
	"fmt"
	"runtime/pprof"
	"strconv"
	"strings"
)

// marker is this package's function that appears in the calling goroutine's
// stack, and in no other goroutine's.
const marker = "x/k6/internal/goroutinelabels.Current"

// Current returns the labels the runtime holds for the calling goroutine.
// It must not be called from two goroutines at once.
//
//go:noinline
func Current() (map[string]string, error) {
	var buf bytes.Buffer
	if err := pprof.Lookup("goroutine").WriteTo(&buf, 1); err != nil {
		return nil, err
	}
	for record := range strings.SplitSeq(buf.String(), "\n\n") {
		if !strings.Contains(record, marker+"+") {
			continue
		}
		labels := map[string]string{}
		for line := range strings.SplitSeq(record, "\n") {
			if rest, ok := strings.CutPrefix(line, "# labels: "); ok {
				if err := parse(rest, labels); err != nil {
					return nil, fmt.Errorf("goroutine profile labels %q: %w", rest, err)
				}
			}
		}
		return labels, nil
	}
	return nil, fmt.Errorf("the goroutine profile has no goroutine in %s", marker)
}

// parse reads runtime/pprof's `{"key":"value", "key":"value"}`.
func parse(s string, into map[string]string) error {
	s, ok := strings.CutPrefix(strings.TrimSpace(s), "{")
	if !ok {
		return fmt.Errorf("no opening brace")
	}
	for {
		s = strings.TrimLeft(s, " ,")
		if s == "}" {
			return nil
		}
		key, rest, err := quoted(s)
		if err != nil {
			return err
		}
		rest, ok = strings.CutPrefix(rest, ":")
		if !ok {
			return fmt.Errorf("no colon after key %q", key)
		}
		value, rest, err := quoted(rest)
		if err != nil {
			return err
		}
		into[key] = value
		s = rest
	}
}

func quoted(s string) (value, rest string, err error) {
	q, err := strconv.QuotedPrefix(s)
	if err != nil {
		return "", "", fmt.Errorf("at %q: %w", s, err)
	}
	value, err = strconv.Unquote(q)
	return value, s[len(q):], err
}
