// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"encoding/json"
	"strconv"
	"testing"

	"github.com/grafana/grafana-plugin-sdk-go/data"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/internal/fixtures"
	"github.com/emberscope/emberscope/internal/pproforacle"
	"github.com/emberscope/emberscope/pkg/datasource/plugin/plugintest"
)

// cumByName is each function's total in the tree, a node under an
// ancestor of the same name not counted again (pprof's cum).
func cumByName(rows []flameRow) map[string]int64 {
	out := map[string]int64{}
	var path []string // the labels from the root to the current row
	for _, r := range rows {
		path = append(path[:r.Level], r.Label)
		outer := true
		for _, above := range path[:r.Level] {
			if above == r.Label {
				outer = false
				break
			}
		}
		if outer && r.Level > 0 {
			out[r.Label] += r.Value
		}
	}
	return out
}

// sampleFilterMeta reads the frame's custom meta sampleFilters.
func sampleFilterMeta(t *testing.T, f *data.Frame) *sampleFilterInfo {
	t.Helper()
	if f.Meta == nil {
		return nil
	}
	b, err := json.Marshal(f.Meta.Custom)
	require.NoError(t, err)
	var m struct {
		SampleFilters *sampleFilterInfo `json:"sampleFilters"`
	}
	require.NoError(t, json.Unmarshal(b, &m))
	return m.SampleFilters
}

// TestIgnoreAndHideMatchGooglePprof checks ignore(q, re) and hide(q, re)
// against `go tool pprof -top -ignore=re / -hide=re` on three recorded
// profiles: every function's flat and cum and the total equal pprof's, and
// the frame's whole total is the total pprof's percentages are of, or,
// with -relative_percentages, the shown total. The regular expressions
// include some that match only file names (pprof matches those too) and
// some that leave samples without a frame (pprof drops them).
func TestIgnoreAndHideMatchGooglePprof(t *testing.T) {
	url := plugintest.Store(t)
	type profileCase struct {
		file, service, typeID, sampleType string
		filters                           []pproforacle.Options
	}
	cases := []profileCase{
		{"routes-1.cpu.pb.gz", "filters-routes", cpuType, "cpu", []pproforacle.Options{
			{Ignore: `sha256`},
			{Ignore: `encoding/json/encode\.go`}, // a file: no function is named so
			{Hide: `runtime`},                    // every frame of some samples: they go
			{Hide: `regexp/exec\.go`},
			{Ignore: `sha256`, Hide: `^main\.`},
		}},
		{"categories.cpu.pb.gz", "filters-categories", cpuType, "cpu", []pproforacle.Options{
			{Ignore: `main\.recurse`},
			{Hide: `^main\.recurse$`},
			{Hide: `strconv`},
		}},
		{"heap-1.pb.gz", "filters-heap", heapType, "inuse_space", []pproforacle.Options{
			{Ignore: `json`},
			{Hide: `main\.alloc`},
			{Ignore: `exe/record`}, // the mapping's file: every sample of the program
		}},
	}
	for _, pc := range cases {
		plugintest.Ingest(t, url, pc.service, plugintest.Now(t, fixtures.Profile(t, pc.file)))
	}
	d := newDS(t, url)
	for _, pc := range cases {
		path := fixtures.ProfilePath(t, pc.file)
		for _, o := range pc.filters {
			o.SampleType = pc.sampleType
			t.Run(pc.file+"/ignore="+o.Ignore+"/hide="+o.Hide, func(t *testing.T) {
				want := pproforacle.Top(t, path, o)
				o.RelativePercentages = true
				relative := pproforacle.Top(t, path, o)

				expr := pc.typeID + `{service_name="` + pc.service + `"}`
				if o.Hide != "" {
					expr = `hide(` + expr + `, ` + strconv.Quote(o.Hide) + `)`
				}
				if o.Ignore != "" {
					expr = `ignore(` + expr + `, ` + strconv.Quote(o.Ignore) + `)`
				}
				js, err := json.Marshal(map[string]string{"expr": expr})
				require.NoError(t, err)
				frames := ok(t, run(t, d, q("A", "profile", string(js))), "A")
				require.Len(t, frames, 1)
				rows := flameRows(t, frames[0])
				require.Equal(t, want.Total, rows[0].Value, "total = pprof's total after %s", expr)
				require.Equal(t, want.Flat(), nonZero(selfByName(rows)), "self = pprof's flat, every function")
				wantCum := want.Cum()
				if len(wantCum) == 0 {
					wantCum = map[string]int64{}
				}
				require.Equal(t, wantCum, cumByName(rows), "total per function = pprof's cum")

				meta := sampleFilterMeta(t, frames[0])
				require.NotNil(t, meta, "the frame says what was filtered")
				require.Equal(t, want.PercentOf, meta.WholeTotal, "whole total = what pprof's percentages are of")
				require.Equal(t, relative.PercentOf, rows[0].Value, "shown total = what pprof's -relative_percentages are of")
			})
		}
	}
}
