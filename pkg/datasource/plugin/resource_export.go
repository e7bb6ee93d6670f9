// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"

	"github.com/emberscope/emberscope/pkg/datasource/query"
	"github.com/emberscope/emberscope/pkg/datasource/source"
)

// export answers GET export?format=pprof&profileTypeId=&labelSelector=&expr=&start=&end=
// with the merged profile of the query's selection as a gzipped pprof file,
// for `go tool pprof`. The query's functions (focus, reverse, ...) shape
// flamegraphs only; the export holds the whole selection.
func (d *Datasource) export(w http.ResponseWriter, r *http.Request) {
	body, name, err := d.exportPprof(r)
	writeDownload(w, "export", body, name, err)
}

func (d *Datasource) exportPprof(r *http.Request) ([]byte, string, error) {
	if r.Method != http.MethodGet && r.Method != http.MethodPost {
		return nil, "", userErrorf("%s is not allowed: use GET or POST", r.Method)
	}
	v, err := params(r)
	if err != nil {
		return nil, "", err
	}
	if f := v.Get("format"); f != "" && f != "pprof" {
		return nil, "", userErrorf("format: %q is not supported: use pprof", f)
	}
	tr, err := timeRange(v)
	if err != nil {
		return nil, "", err
	}
	q, err := query.Compile(query.Model{
		ProfileTypeID: strings.TrimSpace(v.Get("profileTypeId")),
		LabelSelector: v.Get("labelSelector"),
		Expr:          v.Get("expr"),
	})
	if err != nil {
		return nil, "", err
	}
	p, err := d.src.MergeProfile(r.Context(), source.StacksRequest{Selection: source.Selection{
		ProfileTypeID: q.ProfileTypeID, LabelSelector: q.Selector, Range: tr,
	}})
	if err != nil {
		return nil, "", err
	}
	var buf bytes.Buffer
	if err := p.Write(&buf); err != nil {
		return nil, "", fmt.Errorf("encode the merged profile: %w", err)
	}
	name := strings.NewReplacer(":", "_", "/", "_").Replace(q.ProfileTypeID) + ".pb.gz"
	return buf.Bytes(), name, nil
}
