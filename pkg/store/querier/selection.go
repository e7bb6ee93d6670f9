// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package querier

import (
	"fmt"
	"math"
	"time"

	"connectrpc.com/connect"
	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql/parser"

	"github.com/emberscope/emberscope/pkg/profile/model"
)

// Limits of flamegraph sizes, as Pyroscope's defaults.
const (
	DefaultMaxNodes = 8192
	MaxMaxNodes     = 1 << 20
)

var selectorParser = parser.NewParser(parser.Options{})

// parseSelector parses Prometheus matchers; "" and "{}" select everything.
func parseSelector(s string) ([]*labels.Matcher, error) {
	if s == "" || s == "{}" {
		return nil, nil
	}
	ms, err := selectorParser.ParseMetricSelector(s)
	if err != nil {
		return nil, connect.NewError(connect.CodeInvalidArgument, fmt.Errorf("invalid label selector %q: %w", s, err))
	}
	return ms, nil
}

// timeRange turns a request's start and end (unix milliseconds) into an
// inclusive range of nanoseconds. An unset end means now and an unset start
// one hour before end.
func timeRange(start, end int64, now time.Time) (int64, int64, error) {
	if end == 0 {
		end = now.UnixMilli()
	}
	if start == 0 {
		start = end - time.Hour.Milliseconds()
	}
	if start > end {
		return 0, 0, connect.NewError(connect.CodeInvalidArgument,
			fmt.Errorf("invalid time range: start %d is after end %d (unix milliseconds)", start, end))
	}
	const maxMs = math.MaxInt64 / int64(time.Millisecond)
	if start < -maxMs || end > maxMs-1 {
		return 0, 0, connect.NewError(connect.CodeInvalidArgument,
			fmt.Errorf("invalid time range [%d, %d]: out of bounds (want unix milliseconds)", start, end))
	}
	return start * int64(time.Millisecond), end*int64(time.Millisecond) + int64(time.Millisecond) - 1, nil
}

// profileTypeMatcher checks a profile type ID and returns the matcher selecting it.
func profileTypeMatcher(id string) (*labels.Matcher, error) {
	if _, err := model.SplitProfileType(id); err != nil {
		return nil, connect.NewError(connect.CodeInvalidArgument, fmt.Errorf("invalid profile type ID: %w", err))
	}
	return labels.MustNewMatcher(labels.MatchEqual, model.LabelNameProfileType, id), nil
}

// maxNodes validates a request's max_nodes.
func maxNodes(v *int64) (int, error) {
	if v == nil || *v == 0 {
		return DefaultMaxNodes, nil
	}
	if *v < 0 {
		return 0, connect.NewError(connect.CodeInvalidArgument, fmt.Errorf("invalid max_nodes %d: must not be negative", *v))
	}
	if *v > MaxMaxNodes {
		return 0, connect.NewError(connect.CodeInvalidArgument,
			fmt.Errorf("max_nodes %d exceeds the limit %d (max_flamegraph_nodes_max)", *v, MaxMaxNodes))
	}
	return int(*v), nil
}
