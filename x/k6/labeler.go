// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package k6

import (
	"context"
	"runtime/pprof"
)

// Labeler turns k6 baggage into pprof labels with one set of options. It is
// what [LabelsFromBaggageHandler] and the gRPC interceptors of
// `github.com/emberscope/emberscope/x/k6/grpc` use, for other transports.
// A Labeler is safe for concurrent use.
type Labeler struct{ c *config }

// NewLabeler returns a Labeler with the given options.
func NewLabeler(opts ...Option) *Labeler { return &Labeler{c: newConfig(opts)} }

// Do calls f with a context carrying the k6 labels of the given baggage
// header values, the goroutine labelled alike while f runs (as
// [runtime/pprof.Do] does: the labels already on ctx are kept, and win over
// the baggage's when a name is on both). Goroutine labels are restored to
// ctx's when f returns. Without usable k6 members f gets ctx unchanged.
func (l *Labeler) Do(ctx context.Context, baggage []string, f func(context.Context)) {
	pairs := l.c.labelPairs(ctx, baggage)
	if len(pairs) == 0 {
		f(ctx)
		return
	}
	pprof.Do(ctx, pprof.Labels(pairs...), f)
}
