// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package store

import (
	settingsv1 "github.com/grafana/pyroscope/api/gen/proto/go/settings/v1"
)

// RecordingOptions configure recording rules (package rules): the rules
// themselves are kept per tenant through settings.v1.RecordingRulesService.
type RecordingOptions struct {
	// Provisioned rules apply to every tenant and cannot be changed through
	// the API (see rules.LoadFile).
	Provisioned []*settingsv1.RecordingRule
}
