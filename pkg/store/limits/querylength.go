// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package limits

import (
	"context"
	"fmt"
	"time"

	"connectrpc.com/connect"
	querierv1 "github.com/grafana/pyroscope/api/gen/proto/go/querier/v1"
	promodel "github.com/prometheus/common/model"
)

// QueryTooLong is Pyroscope's refusal of a query whose range is longer than
// max_query_length (recordings 64–71): connect code invalid_argument (HTTP
// 400), the measured length as Go prints a time.Duration and the limit as
// Prometheus prints a duration ("1d").
func QueryTooLong(actual, limit time.Duration) *connect.Error {
	return connect.NewError(connect.CodeInvalidArgument, fmt.Errorf(
		"the query time range exceeds the limit (max_query_length, actual: %s, limit: %s)",
		actual, promodel.Duration(limit)))
}

// ranged is every querier request with a time range.
type ranged interface {
	GetStart() int64
	GetEnd() int64
}

// queryLength is the length of a request's range in unix milliseconds, the
// missing ends filled in as the querier fills them (end now, start an hour
// before end).
func queryLength(start, end int64, now time.Time) time.Duration {
	if end == 0 {
		end = now.UnixMilli()
	}
	if start == 0 {
		start = end - time.Hour.Milliseconds()
	}
	return time.Duration(end-start) * time.Millisecond
}

// QueryLengthInterceptor refuses, as Pyroscope does, every querier call
// (metadata calls included) whose range is longer than limit; a range of
// exactly limit is answered. A limit of 0 is off. now may be nil.
func QueryLengthInterceptor(limit time.Duration, now func() time.Time) connect.UnaryInterceptorFunc {
	if now == nil {
		now = time.Now
	}
	return func(next connect.UnaryFunc) connect.UnaryFunc {
		if limit <= 0 {
			return next
		}
		return func(ctx context.Context, req connect.AnyRequest) (connect.AnyResponse, error) {
			var ranges []ranged
			switch m := req.Any().(type) {
			case *querierv1.DiffRequest:
				if m.Left != nil {
					ranges = append(ranges, m.Left)
				}
				if m.Right != nil {
					ranges = append(ranges, m.Right)
				}
			case ranged:
				ranges = append(ranges, m)
			}
			t := now()
			for _, r := range ranges {
				if l := queryLength(r.GetStart(), r.GetEnd(), t); l > limit {
					return nil, QueryTooLong(l, limit)
				}
			}
			return next(ctx, req)
		}
	}
}
