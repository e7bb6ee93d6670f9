// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package settings

import (
	"strings"
	"time"

	promodel "github.com/prometheus/common/model"
)

// parseMaxQueryLength reads jsonData.maxQueryLength: the profile server's
// longest query range, written as Pyroscope writes max_query_length ("1d",
// "36h", "1d12h") or as a Go duration ("24h"); empty or absent learns it
// from the server's first refusal.
func parseMaxQueryLength(raw *string) (time.Duration, error) {
	if raw == nil || strings.TrimSpace(*raw) == "" {
		return 0, nil
	}
	s := strings.TrimSpace(*raw)
	d, err := promodel.ParseDuration(s)
	if err == nil && d > 0 {
		return time.Duration(d), nil
	}
	if g, gerr := time.ParseDuration(s); gerr == nil && g > 0 {
		return g, nil
	}
	return 0, fieldErr("jsonData.maxQueryLength", "%q is not a positive duration (write it as Pyroscope's max_query_length, like \"1d\" or \"36h\"; leave it empty to learn it from the server)", *raw)
}
