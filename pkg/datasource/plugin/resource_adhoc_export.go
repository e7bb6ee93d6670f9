// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/google/pprof/profile"
	"github.com/grafana/grafana-plugin-sdk-go/backend"

	"github.com/emberscope/emberscope/pkg/datasource/source/filesource"
)

// adhocExportRequest is what the Open a file page shows: open files merged
// under a query (IDs), or a comparison (the diff request's fields).
type adhocExportRequest struct {
	IDs []string `json:"ids"`
	adhocDiffRequest
}

// adhocExport answers POST adhoc/export with what the page shows as a
// gzipped pprof file, for `go tool pprof`: the files merged under the
// query's selection, or a comparison as pprof builds it (the baseline
// negated, for -diff_base labelled pprof::base=true, so that
// `go tool pprof -top` of the file prints the diff against the baseline's
// total, as -diff_base does; for -base the net).
func (d *Datasource) adhocExport(w http.ResponseWriter, r *http.Request) {
	body, name, err := d.adhocExportPprof(r)
	writeDownload(w, "adhocExport", body, name, err)
}

func (d *Datasource) adhocExportPprof(r *http.Request) ([]byte, string, error) {
	var req adhocExportRequest
	if err := readJSON(r, &req); err != nil {
		return nil, "", err
	}
	var (
		p    *profile.Profile
		err  error
		name string
	)
	if len(req.IDs) > 0 {
		if len(req.LeftIDs)+len(req.RightIDs) > 0 || req.LeftLive != nil || req.RightLive != nil {
			return nil, "", userErrorf("export: give ids (files merged) or a baseline and a comparison, not both")
		}
		p, name, err = d.exportFiles(r, req)
	} else {
		c, cerr := d.resolveDiff(r.Context(), req.adhocDiffRequest)
		if cerr != nil {
			return nil, "", cerr
		}
		p, err = diffProfile(r.Context(), c.left, c.right, c.mode == "diff_base")
		name = "diff-" + strings.ReplaceAll(c.mode, "_", "-")
	}
	if err != nil {
		return nil, "", err
	}
	var buf bytes.Buffer
	if err := p.Write(&buf); err != nil {
		return nil, "", fmt.Errorf("encode the profile: %w", err)
	}
	return buf.Bytes(), name + ".pb.gz", nil
}

// exportFiles merges open files under the query's selection.
func (d *Datasource) exportFiles(r *http.Request, req adhocExportRequest) (*profile.Profile, string, error) {
	es, err := adhocEntries(r.Context(), req.IDs)
	if err != nil {
		return nil, "", err
	}
	now := d.now()
	q, err := parseRequest(backend.DataQuery{RefID: "A", QueryType: QueryTypeProfile, JSON: req.Query, MaxDataPoints: 1000, Interval: time.Minute,
		TimeRange: backend.TimeRange{From: now.Add(-time.Hour), To: now}}, d.settings.MinStep)
	if err != nil {
		return nil, "", err
	}
	p, err := filesource.New(filesOf(es)...).MergeProfile(r.Context(), stacksOf(q.selection()))
	if err != nil {
		return nil, "", err
	}
	name := strings.TrimSuffix(strings.TrimSuffix(es[0].Name, ".gz"), ".pb")
	if len(es) > 1 {
		name = fmt.Sprintf("%d-files-merged", len(es))
	}
	return p, strings.NewReplacer("/", "_", "\\", "_", "\"", "_").Replace(name), nil
}
