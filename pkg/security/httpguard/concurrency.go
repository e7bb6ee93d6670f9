// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package httpguard

import (
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
)

// Concurrency lets at most running requests whose path has one of the
// suffixes run at once; up to queued more wait for a slot (until their
// client gives up), the rest are answered 429. running 0 turns it off.
func Concurrency(running, queued int, suffixes []string, next http.Handler) http.Handler {
	if running <= 0 {
		return next
	}
	return &limiter{slots: make(chan struct{}, running), running: running, queued: queued, suffixes: suffixes, next: next}
}

type limiter struct {
	slots           chan struct{}
	waiting         atomic.Int64
	running, queued int
	suffixes        []string
	next            http.Handler
}

func (l *limiter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	heavy := false
	for _, s := range l.suffixes {
		if strings.HasSuffix(r.URL.Path, s) {
			heavy = true
			break
		}
	}
	if !heavy {
		l.next.ServeHTTP(w, r)
		return
	}
	select {
	case l.slots <- struct{}{}:
	default:
		if l.waiting.Add(1) > int64(l.queued) {
			l.waiting.Add(-1)
			w.Header().Set("Retry-After", "1")
			connectError(w, http.StatusTooManyRequests, "resource_exhausted",
				fmt.Sprintf("too many queries: %d running and %d waiting (-max-concurrent-queries %d, -max-queued-queries %d); retry later",
					l.running, l.queued, l.running, l.queued))
			return
		}
		select {
		case l.slots <- struct{}{}:
			l.waiting.Add(-1)
		case <-r.Context().Done():
			l.waiting.Add(-1)
			connectError(w, 499, "canceled", "the client gave up while the query waited for a slot")
			return
		}
	}
	defer func() { <-l.slots }()
	l.next.ServeHTTP(w, r)
}
