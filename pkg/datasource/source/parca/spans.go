// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package parca

import (
	"github.com/emberscope/emberscope/pkg/datasource/source"
	"github.com/emberscope/emberscope/pkg/profile/model"
)

// checkTraceSelectors refuses what Parca cannot select: its query API has
// no span selector and gives profiles no ids, so a flamegraph of chosen
// spans or profiles would silently be the whole selection's.
func checkTraceSelectors(sel source.Selection) error {
	if len(sel.SpanSelector) > 0 {
		return &model.Error{Kind: model.KindUnimplemented, Msg: "span selectors are not supported on Parca: its query API cannot select the samples of a span. Remove the Span IDs, or query a Pyroscope server or the embedded store"}
	}
	if len(sel.ProfileIDs) > 0 {
		return &model.Error{Kind: model.KindUnimplemented, Msg: "profile id selectors are not supported on Parca: its profiles have no ids. Remove profileIdSelector, or query a Pyroscope server or the embedded store"}
	}
	return nil
}
