// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"strings"
	"time"

	"github.com/prometheus/common/model"

	"github.com/emberscope/emberscope/pkg/datasource/source"
)

// Live mode defaults and bounds. A live query covers the last Window and is
// re-run every Interval while someone watches its channel.
const (
	DefaultLiveWindow   = 15 * time.Minute
	MinLiveWindow       = time.Minute
	MaxLiveWindow       = 24 * time.Hour
	DefaultLiveInterval = 10 * time.Second
	MinLiveInterval     = time.Second
	MaxLiveInterval     = 10 * time.Minute
)

// liveOptions are the live-mode settings of a query with "live": true.
type liveOptions struct {
	// Window is how far back the query looks from now ("liveWindow").
	Window time.Duration
	// Interval is how often the stream re-runs the query ("liveInterval").
	Interval time.Duration
}

// parseLive reads liveWindow and liveInterval (duration strings such as
// "15m", "30s", "1h"); empty means the default.
func parseLive(m *queryModel) (*liveOptions, error) {
	if !m.Live {
		return nil, nil
	}
	o := &liveOptions{}
	var err error
	if o.Window, err = liveDuration("liveWindow", m.LiveWindow, DefaultLiveWindow, MinLiveWindow, MaxLiveWindow); err != nil {
		return nil, err
	}
	if o.Interval, err = liveDuration("liveInterval", m.LiveInterval, DefaultLiveInterval, MinLiveInterval, MaxLiveInterval); err != nil {
		return nil, err
	}
	return o, nil
}

func liveDuration(field, s string, def, lo, hi time.Duration) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return def, nil
	}
	d, err := model.ParseDuration(s)
	if err != nil {
		return 0, userErrorf("%s: %q is not a duration such as \"30s\", \"15m\" or \"1h\"", field, s)
	}
	switch v := time.Duration(d); {
	case v < lo:
		return 0, userErrorf("%s: %s is below the minimum of %s", field, v, lo)
	case v > hi:
		return 0, userErrorf("%s: %s is above the maximum of %s", field, v, hi)
	default:
		return v, nil
	}
}

// liveRange is the range a live query covers at now: the last window, with
// both ends on multiples of step (counted from the Unix epoch) so that the
// series buckets of successive runs fall on the same timestamps.
func liveRange(now time.Time, window, step time.Duration) source.TimeRange {
	s := max(step.Milliseconds(), 1)
	to := (now.UnixMilli() + s - 1) / s * s
	from := (to - window.Milliseconds()) / s * s
	return source.TimeRange{From: time.UnixMilli(from).UTC(), To: time.UnixMilli(to).UTC()}
}
