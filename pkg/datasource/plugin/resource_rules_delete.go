// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"net/http"
	"strings"
)

// rulesDelete answers POST rules/delete with {"id": …}.
func (d *Datasource) rulesDelete(r *http.Request) (any, error) {
	v, err := params(r)
	if err != nil {
		return nil, err
	}
	id := strings.TrimSpace(v.Get("id"))
	if id == "" {
		return nil, userErrorf("id: missing; name the rule to delete")
	}
	rr, err := d.recordingRules(r.Context())
	if err != nil {
		return nil, err
	}
	if err := rr.DeleteRecordingRule(r.Context(), id); err != nil {
		return nil, err
	}
	return map[string]string{"deleted": id}, nil
}
