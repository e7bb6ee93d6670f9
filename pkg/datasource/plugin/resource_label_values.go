// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"net/http"
	"slices"
	"strings"

	"github.com/prometheus/prometheus/model/labels"

	"github.com/emberscope/emberscope/pkg/profile/model"
)

func profileTypeMatcher(id string) *labels.Matcher {
	return labels.MustNewMatcher(labels.MatchEqual, model.LabelNameProfileType, id)
}

// labelValues answers GET labelValues?label=&matchers=&profileTypeId=&start=&end=
// with the sorted values of label among the matching series.
func (d *Datasource) labelValues(r *http.Request) (any, error) {
	req, v, err := labelsRequest(r)
	if err != nil {
		return nil, err
	}
	name := strings.TrimSpace(v.Get("label"))
	if name == "" {
		return nil, userErrorf("label: required, the name of the label whose values to list")
	}
	values, err := d.src.LabelValues(r.Context(), name, req)
	if err != nil {
		return nil, err
	}
	values = slices.Clone(values)
	slices.Sort(values)
	return slices.Compact(values), nil
}
