// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"net/http"
)

// rulesUpsert answers POST rules/upsert with a rule as JSON: a new rule
// without an id, else an update naming the stored generation. The server
// validates it; its refusals are answered in its own words.
func (d *Datasource) rulesUpsert(r *http.Request) (any, error) {
	rule, err := ruleBody(r)
	if err != nil {
		return nil, err
	}
	rr, err := d.recordingRules(r.Context())
	if err != nil {
		return nil, err
	}
	return rr.UpsertRecordingRule(r.Context(), rule)
}
