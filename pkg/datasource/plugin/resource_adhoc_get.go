// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"encoding/json"
	"net/http"

	"github.com/grafana/grafana-plugin-sdk-go/data"

	"github.com/emberscope/emberscope/pkg/datasource/source/filesource"
)

// adhocGetRequest names open files and the query to run over them (the
// panel's query shape: a profile, labels or top table query, with its
// profileTypeId, labelSelector and expr such as `{} by (route)`).
type adhocGetRequest struct {
	IDs   []string        `json:"ids"`
	Query json.RawMessage `json:"query"`
}

// adhocGetAnswer is Pyroscope's Get answer with data frames instead of a
// flamebearer: the files, every profile type they hold, and the frames.
type adhocGetAnswer struct {
	Profiles     []adhocMeta   `json:"profiles"`
	ProfileTypes []string      `json:"profileTypes"`
	Frames       []*data.Frame `json:"frames"`
}

// adhocGet answers POST adhoc/get {"ids": [...], "query": {...}}: the files
// merged (as pprof merges profiles) under the query.
func (d *Datasource) adhocGet(r *http.Request) (any, error) {
	var req adhocGetRequest
	if err := readJSON(r, &req); err != nil {
		return nil, err
	}
	es, err := adhocEntries(r.Context(), req.IDs)
	if err != nil {
		return nil, err
	}
	src := filesource.New(filesOf(es)...)
	frames, err := d.overFiles(src).adhocQuery(r.Context(), req.Query)
	if err != nil {
		return nil, err
	}
	ans := adhocGetAnswer{Frames: frames}
	seen := map[string]bool{}
	for _, e := range es {
		m := metaOf(e)
		ans.Profiles = append(ans.Profiles, m)
		for _, t := range m.ProfileTypes {
			if !seen[t] {
				seen[t] = true
				ans.ProfileTypes = append(ans.ProfileTypes, t)
			}
		}
	}
	return ans, nil
}
