// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"net/http"
	"sort"
)

// profileTypeJSON is one entry of the profileTypes route: Grafana Pyroscope's
// {id, label} plus the five parts of the ID.
type profileTypeJSON struct {
	ID         string `json:"id"`
	Label      string `json:"label"`
	Name       string `json:"name"`
	SampleType string `json:"sampleType"`
	SampleUnit string `json:"sampleUnit"`
	PeriodType string `json:"periodType"`
	PeriodUnit string `json:"periodUnit"`
}

// profileTypes answers GET profileTypes?start=&end= with the profile types
// that have data in the range, sorted by ID.
func (d *Datasource) profileTypes(r *http.Request) (any, error) {
	v, err := params(r)
	if err != nil {
		return nil, err
	}
	tr, err := timeRange(v)
	if err != nil {
		return nil, err
	}
	types, err := d.src.ProfileTypes(r.Context(), tr)
	if err != nil {
		return nil, err
	}
	out := make([]profileTypeJSON, 0, len(types))
	for _, t := range types {
		out = append(out, profileTypeJSON{
			ID: t.String(), Label: t.Name + " - " + t.SampleType,
			Name: t.Name, SampleType: t.SampleType, SampleUnit: t.SampleUnit,
			PeriodType: t.PeriodType, PeriodUnit: t.PeriodUnit,
		})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}
