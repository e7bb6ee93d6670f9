// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"net/http"
	"slices"
)

// labelNames answers GET labelNames?matchers=&profileTypeId=&start=&end=
// with the sorted label names of the matching series.
func (d *Datasource) labelNames(r *http.Request) (any, error) {
	req, _, err := labelsRequest(r)
	if err != nil {
		return nil, err
	}
	names, err := d.src.LabelNames(r.Context(), req)
	if err != nil {
		return nil, err
	}
	names = slices.Clone(names)
	slices.Sort(names)
	return slices.Compact(names), nil
}
