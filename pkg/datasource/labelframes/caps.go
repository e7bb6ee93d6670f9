// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package labelframes

import (
	"context"
	"fmt"
	"sync"
)

// Caps on one query's virtual frames, so that a few labels with many values
// cannot fan out into thousands of upstream calls.
const (
	// DefaultMaxLeaves bounds the MergeStacks calls one Build plans.
	DefaultMaxLeaves = 1000
	// DefaultMaxLabels bounds the labels one Build makes frames of.
	DefaultMaxLabels = 4
)

type noticesKey struct{}

// Notices collects what Build tells the user (capped labels or leaves).
type Notices struct {
	mu   sync.Mutex
	msgs []string
}

// WithNotices returns ctx carrying a collector that Build adds notices to.
func WithNotices(ctx context.Context) (context.Context, *Notices) {
	n := &Notices{}
	return context.WithValue(ctx, noticesKey{}, n), n
}

// List returns the notices collected so far.
func (n *Notices) List() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]string(nil), n.msgs...)
}

func notify(ctx context.Context, format string, args ...any) {
	if n, ok := ctx.Value(noticesKey{}).(*Notices); ok {
		n.mu.Lock()
		n.msgs = append(n.msgs, fmt.Sprintf(format, args...))
		n.mu.Unlock()
	}
}

// capLabels keeps the first max labels and says so.
func capLabels(ctx context.Context, names []string, max int) []string {
	if len(names) <= max {
		return names
	}
	notify(ctx, "Virtual frames are made from at most %d labels; %d were asked for, so %v are left out.", max, len(names), names[max:])
	return names[:max]
}
