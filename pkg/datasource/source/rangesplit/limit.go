// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Package rangesplit keeps every call to a profile server within the
// server's longest query range (Grafana Pyroscope's max_query_length, one
// day by default, which refuses even metadata calls over a longer range).
// Source wraps a source.Source: a call over a longer range is planned as
// pieces that each fit, run a few at a time, and their answers merged
// exactly (flamegraph trees node for node, series points per step, label
// sets unioned). The limit comes from the datasource's settings or is
// learned from the server's first refusal, and is kept per Source.
package rangesplit

import (
	"errors"
	"regexp"
	"strings"
	"time"

	promodel "github.com/prometheus/common/model"

	"github.com/emberscope/emberscope/pkg/profile/model"
)

// tooLong matches Pyroscope's refusal: "the query time range exceeds the
// limit (max_query_length, actual: 48h0m0s, limit: 1d)".
var tooLong = regexp.MustCompile(`max_query_length, actual: ([^,]+), limit: ([^)]+)\)`)

// LimitOf returns the limit a server's refusal names, when err is a
// max_query_length refusal: the limit is read as Prometheus writes
// durations ("1d", "36h", "1d12h") or as Go does ("24h0m0s").
func LimitOf(err error) (time.Duration, bool) {
	if err == nil {
		return 0, false
	}
	var me *model.Error
	msg := err.Error()
	if errors.As(err, &me) {
		if me.Kind != model.KindBadRequest {
			return 0, false
		}
		msg = me.Msg
	}
	m := tooLong.FindStringSubmatch(msg)
	if m == nil {
		return 0, false
	}
	d, err := ParseDuration(m[2])
	if err != nil || d <= 0 {
		return 0, false
	}
	return d, true
}

// ParseDuration reads a duration as Prometheus writes it ("1d", "1w",
// "12h30m") or as Go does ("24h0m0s", "1.5h").
func ParseDuration(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if d, err := promodel.ParseDuration(s); err == nil {
		return time.Duration(d), nil
	}
	return time.ParseDuration(s)
}

// FormatDuration writes d as Prometheus and Pyroscope do ("1d", "36h").
func FormatDuration(d time.Duration) string { return promodel.Duration(d).String() }
