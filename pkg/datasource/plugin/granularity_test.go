// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"context"
	"encoding/json"
	"strconv"
	"testing"
	"time"

	"github.com/grafana/grafana-plugin-sdk-go/backend"
	"github.com/grafana/grafana-plugin-sdk-go/data"
	googlev1 "github.com/grafana/pyroscope/api/gen/proto/go/google/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/internal/fixtures"
	"github.com/emberscope/emberscope/internal/pproforacle"
	"github.com/emberscope/emberscope/internal/pyroscopereplay"
	"github.com/emberscope/emberscope/pkg/datasource/plugin/plugintest"
)

// pyroscopeRecorded is the range of the recorded Pyroscope queries
// (internal/fixtures/pyroscope/README.md).
var pyroscopeRecorded = backend.TimeRange{From: time.UnixMilli(1796108400000).UTC(), To: time.UnixMilli(1796111700000).UTC()}

// topRows reads a top table frame: self (non-zero only) and total per symbol,
// the root row left out.
func topRows(t *testing.T, f *data.Frame) (self, total map[string]int64) {
	t.Helper()
	sym, _ := f.FieldByName("symbol")
	selfF, _ := f.FieldByName("self")
	totalF, _ := f.FieldByName("total")
	require.NotNil(t, sym)
	self, total = map[string]int64{}, map[string]int64{}
	for i := 0; i < f.Rows(); i++ {
		name := sym.At(i).(string)
		if name == "total" {
			continue
		}
		if s := selfF.At(i).(int64); s != 0 {
			self[name] = s
		}
		total[name] = totalF.At(i).(int64)
	}
	return self, total
}

// nonZeroSelf drops the zero entries of a self-by-name map and the root.
func nonZeroSelf(m map[string]int64) map[string]int64 {
	out := map[string]int64{}
	for k, v := range m {
		if v != 0 && k != "total" {
			out[k] = v
		}
	}
	return out
}

// TestGranularityOnPyroscopeRecording: at lines and at files, a query on
// Pyroscope is answered from SelectMergeProfile's pprof (recording 27, a real
// Pyroscope v2.2.1's answer); the top table's self and total per line (per
// file) are pprof's flat and cum for that very pprof (`go tool pprof -top
// -lines` / `-files`), and so are the flamegraph's and the diff's selves.
func TestGranularityOnPyroscopeRecording(t *testing.T) {
	srv := pyroscopereplay.NewServer(t)
	t.Cleanup(func() { assert.Empty(t, srv.Unmatched(), "every call was recorded") })
	inst, err := NewDatasource(context.Background(), backend.DataSourceInstanceSettings{
		UID: "pyro", Type: PluginID, URL: srv.URL, JSONData: json.RawMessage(`{"serverKind":"pyroscope","minStep":"15s"}`),
	})
	require.NoError(t, err)
	d := inst.(*Datasource)

	ex := srv.Exchange(t, "27-select-merge-profile")
	m, err := pyroscopereplay.Decode(ex.RPC(), ex.Response)
	require.NoError(t, err)
	raw, err := m.(*googlev1.Profile).MarshalVT()
	require.NoError(t, err)

	query := func(refID, queryType, granularity string) backend.DataQuery {
		js := `{"profileTypeId":"` + cpuType + `","labelSelector":"{service_name=\"rec-labeled\"}","granularity":"` + granularity + `"`
		if queryType == "diff" {
			js += `,"comparison":{"labelSelector":"{service_name=\"rec-labeled\"}","from":` +
				strconv.FormatInt(pyroscopeRecorded.From.UnixMilli(), 10) + `,"to":` + strconv.FormatInt(pyroscopeRecorded.To.UnixMilli(), 10) + `}`
		}
		return backend.DataQuery{RefID: refID, QueryType: queryType, JSON: json.RawMessage(js + "}"), TimeRange: pyroscopeRecorded, MaxDataPoints: 100, Interval: time.Second}
	}
	for _, g := range []string{"lines", "files"} {
		want := pproforacle.TopOfBytes(t, raw, pproforacle.Options{Granularity: g})
		require.Equal(t, int64(3_770_000_000), want.Total)
		resp := run(t, d, query("T", "topTable", g), query("P", "profile", g), query("D", "diff", g))

		self, total := topRows(t, ok(t, resp, "T")[0])
		require.Equal(t, want.Flat(), self, "%s: top table self = pprof flat", g)
		require.Equal(t, want.Cum(), total, "%s: top table total = pprof cum", g)

		rows := flameRows(t, ok(t, resp, "P")[0])
		require.Equal(t, want.Total, rows[0].Value)
		require.Equal(t, want.Flat(), nonZeroSelf(selfByName(rows)), "%s: flamegraph self = pprof flat", g)

		diff := flameRows(t, ok(t, resp, "D")[0])
		require.Equal(t, want.Flat(), nonZeroSelf(selfByName(diff)), "%s: diff baseline self = pprof flat", g)
	}
	self, total := topRows(t, ok(t, run(t, d, query("L", "topTable", "lines")), "L")[0])
	assert.Contains(t, total, "main.hashWork main.go:65", "names are pkg.Func file.go:line")
	assert.NotEmpty(t, self)

	resp := run(t, d, query("X", "topTable", "words"))
	require.ErrorContains(t, resp.Responses["X"].Error, `granularity: "words" is not a granularity: use functions, lines or files`)
}

// TestGranularityOnParcaRecording: on Parca, lines and files come from its
// PPROF report (recording 21, a real Parca v0.28.0's answer): the top table
// equals pprof's -lines / -files of that pprof.
func TestGranularityOnParcaRecording(t *testing.T) {
	d := parcaDS(t)
	// The pprof exactly as Parca sent it (the .pb.gz beside it has its
	// paths rewritten).
	var answer struct {
		Pprof []byte `json:"pprof"`
	}
	require.NoError(t, json.Unmarshal(fixtures.Read(t, "parca/21-query-merge-pprof.response.json"), &answer))
	require.NotEmpty(t, answer.Pprof)
	for _, g := range []string{"lines", "files"} {
		want := pproforacle.TopOfBytes(t, answer.Pprof, pproforacle.Options{Granularity: g})
		f := ok(t, run(t, d, parcaQuery("T", "topTable", `{"profileTypeId":"`+cpuType+`","labelSelector":"{job=\"demo-labeled\"}","granularity":"`+g+`"}`)), "T")[0]
		self, total := topRows(t, f)
		require.Equal(t, want.Flat(), self, "%s: self = pprof flat", g)
		require.Equal(t, want.Cum(), total, "%s: total = pprof cum", g)
		require.Greater(t, len(total), 10)
	}
}

// TestGranularityOnStore: on our store, lines and files come from its
// SelectMergeProfile, which keeps each frame's file and line: the top table,
// the flamegraph of a "both" query and the baseline of a diff have pprof's
// -lines / -files numbers for the pushed profile, and with virtual frames
// from route each route's subtree has the numbers of pprof -lines
// -tagfocus route=... .
func TestGranularityOnStore(t *testing.T) {
	fx := storeFixture(t)
	d := newDS(t, fx.url)
	path := fixtures.ProfilePath(t, plugintest.CPUFile)
	sel := `"profileTypeId":"` + cpuType + `","labelSelector":"{service_name=\"shop\"}"`
	tr := testRange()
	cmp := `,"comparison":{"labelSelector":"{service_name=\"shop\"}","from":` + strconv.FormatInt(tr.From.UnixMilli(), 10) + `,"to":` + strconv.FormatInt(tr.To.UnixMilli(), 10) + `}`
	for _, g := range []string{"lines", "files"} {
		want := pproforacle.Top(t, path, pproforacle.Options{SampleType: "cpu", Granularity: g})
		diff := q("D", "diff", `{`+sel+`,"granularity":"`+g+`"`+cmp+`}`)
		diff.TimeRange = tr
		resp := run(t, d,
			q("T", "topTable", `{`+sel+`,"granularity":"`+g+`"}`),
			q("B", "both", `{`+sel+`,"granularity":"`+g+`"}`),
			diff,
		)
		self, total := topRows(t, ok(t, resp, "T")[0])
		require.Equal(t, want.Flat(), self, "%s: top table self = pprof flat", g)
		require.Equal(t, want.Cum(), total, "%s: top table total = pprof cum", g)

		both := ok(t, resp, "B")
		flame := frameOf(both, data.VisTypeFlameGraph)
		require.NotNil(t, flame)
		require.Equal(t, want.Flat(), nonZeroSelf(selfByName(flameRows(t, flame))), "%s: both's flamegraph", g)
		require.Greater(t, len(both), 1, "both has its series")

		require.Equal(t, want.Flat(), nonZeroSelf(selfByName(flameRows(t, ok(t, resp, "D")[0]))), "%s: diff baseline", g)
	}
	assert.Contains(t, topRowsNames(t, d, sel), plugintest.FuncName("burnSearch")+" workloads.go:", "lines are named pkg.Func file.go:line")

	// Virtual frames from a label over lines.
	rows := flameRows(t, ok(t, run(t, d, q("V", "profile", `{"expr":"`+cpuType+`{service_name=\"shop\"} by (route)","granularity":"lines"}`)), "V")[0])
	perRoute := map[string]map[string]int64{}
	route := ""
	for _, r := range rows {
		if r.Level == 1 {
			require.True(t, r.Virtual, "%+v", r)
			route = r.Label
			perRoute[route] = map[string]int64{}
			continue
		}
		if r.Level > 1 && r.Self != 0 {
			perRoute[route][r.Label] += r.Self
		}
	}
	for _, rt := range plugintest.Routes {
		want := pproforacle.Top(t, path, pproforacle.Options{SampleType: "cpu", Granularity: "lines", Labels: map[string]string{"route": rt}})
		require.Equal(t, want.Flat(), perRoute[rt], "route %s at lines = pprof -lines -tagfocus route=%s", rt, rt)
	}
}

// topRowsNames runs a lines top table and returns its names joined by newlines.
func topRowsNames(t *testing.T, d *Datasource, sel string) string {
	t.Helper()
	_, total := topRows(t, ok(t, run(t, d, q("N", "topTable", `{`+sel+`,"granularity":"lines"}`)), "N")[0])
	out := ""
	for n := range total {
		out += n + "\n"
	}
	return out
}
