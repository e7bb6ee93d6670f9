// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"net/http"
	"strings"
)

// rulesGet answers GET rules/get?id=: one rule.
func (d *Datasource) rulesGet(r *http.Request) (any, error) {
	id := strings.TrimSpace(r.URL.Query().Get("id"))
	if id == "" {
		return nil, userErrorf("id: missing; name the rule to get")
	}
	rr, err := d.recordingRules(r.Context())
	if err != nil {
		return nil, err
	}
	return rr.GetRecordingRule(r.Context(), id)
}
