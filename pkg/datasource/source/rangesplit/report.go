// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package rangesplit

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// Report collects the splits of the calls made with its context, so that
// the query they served can say so on its frame.
type Report struct {
	mu     sync.Mutex
	splits []split
}

type split struct {
	pieces int
	limit  time.Duration
}

type reportKey struct{}

// WithReport returns ctx carrying a Report that the Source adds its splits to.
func WithReport(ctx context.Context) (context.Context, *Report) {
	r := &Report{}
	return context.WithValue(ctx, reportKey{}, r), r
}

func record(ctx context.Context, pieces int, limit time.Duration) {
	if r, ok := ctx.Value(reportKey{}).(*Report); ok {
		r.mu.Lock()
		r.splits = append(r.splits, split{pieces: pieces, limit: limit})
		r.mu.Unlock()
	}
}

// Notices are the texts to show on the query's frame: none when nothing
// was split, else one naming the limit and the most pieces one call took (a
// "both" query splits its flamegraph and its series alike).
func (r *Report) Notices() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.splits) == 0 {
		return nil
	}
	most := r.splits[0]
	for _, s := range r.splits[1:] {
		if s.pieces > most.pieces {
			most = s
		}
	}
	return []string{fmt.Sprintf("The time range is longer than the profile server's max_query_length (%s): it was queried as %d pieces of ≤ %s and the answers merged.",
		FormatDuration(most.limit), most.pieces, FormatDuration(most.limit))}
}
