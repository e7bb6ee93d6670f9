// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"github.com/grafana/grafana-plugin-sdk-go/data"

	"github.com/emberscope/emberscope/pkg/datasource/source/rangesplit"
)

// noticeSplit tells, on the query's first frame, that its range was longer
// than the profile server accepts and was queried in pieces.
func noticeSplit(frames data.Frames, rep *rangesplit.Report) {
	notices := rep.Notices()
	if len(notices) == 0 || len(frames) == 0 || frames[0] == nil {
		return
	}
	for _, n := range notices {
		frames[0].AppendNotices(data.Notice{Severity: data.NoticeSeverityInfo, Text: n})
	}
}
