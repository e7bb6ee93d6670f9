// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"net/http"

	"github.com/emberscope/emberscope/pkg/datasource/source"
)

// rulesListAnswer is the rules resource's answer.
type rulesListAnswer struct {
	Rules []source.RecordingRule `json:"rules"`
}

// rulesList answers GET rules: every rule of the server (for the tenant
// the datasource's headers name).
func (d *Datasource) rulesList(r *http.Request) (any, error) {
	rr, err := d.recordingRules(r.Context())
	if err != nil {
		return nil, err
	}
	rules, err := rr.ListRecordingRules(r.Context())
	if err != nil {
		return nil, err
	}
	return rulesListAnswer{Rules: rules}, nil
}
