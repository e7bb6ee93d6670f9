// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/grafana/grafana-plugin-sdk-go/backend"
	"github.com/grafana/grafana-plugin-sdk-go/data"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/internal/fixtures"
	"github.com/emberscope/emberscope/internal/pproforacle"
	"github.com/emberscope/emberscope/internal/pyroscopereplay"
	"github.com/emberscope/emberscope/pkg/datasource/plugin/plugintest"
)

// spanRecorded is the range of the span recordings 44-63
// (internal/fixtures/pyroscope/spans-query-params.json).
var spanRecorded = backend.TimeRange{From: time.UnixMilli(1796178321000), To: time.UnixMilli(1796181981000)}

// spanReplayDS is a datasource named "Profiles" (uid "profiles") in front of
// the replay of Pyroscope v2.2.1's span answers, with a tracing datasource
// "tempo" in its settings; every call it makes must be a recorded one.
func spanReplayDS(t *testing.T) *Datasource {
	t.Helper()
	srv := pyroscopereplay.NewServer(t)
	t.Cleanup(func() { assert.Empty(t, srv.Unmatched(), "every call was recorded") })
	inst, err := NewDatasource(context.Background(), backend.DataSourceInstanceSettings{
		UID: "profiles", Name: "Profiles", Type: PluginID, URL: srv.URL,
		JSONData: json.RawMessage(`{"serverKind":"pyroscope","minStep":"15s","tracingDatasourceUid":"tempo"}`),
	})
	require.NoError(t, err)
	return inst.(*Datasource)
}

// spanQuery is a query over the recorded range with 61 points: a 60 s step,
// as the recorded SelectSeries and SelectHeatmap asked.
func spanQuery(refID, queryType, js string) backend.DataQuery {
	return backend.DataQuery{RefID: refID, QueryType: queryType, JSON: json.RawMessage(js), TimeRange: spanRecorded, MaxDataPoints: 61, Interval: time.Second}
}

func pushedSpanProfile(t *testing.T, name string) string {
	return fixtures.Path(t, "pyroscope/pushed-profiles/"+name)
}

// TestGrafanaPyroscopeSpanProfileQuery sends the profile query Grafana's
// built-in Pyroscope datasource sends for traces-to-profiles (its model:
// profileTypeId, labelSelector, spanSelector, maxNodes, groupBy): the
// flamegraph is exactly the two spans' samples, as google/pprof's
// -tagfocus span_id=... counts them in the pushed profiles.
func TestGrafanaPyroscopeSpanProfileQuery(t *testing.T) {
	d := spanReplayDS(t)
	resp := run(t, d, spanQuery("A", "profile", `{"refId":"A","queryType":"profile","profileTypeId":"process_cpu:cpu:nanoseconds:cpu:nanoseconds",
		"labelSelector":"{service_name=\"rec-spans\"}","groupBy":[],"maxNodes":16384,"spanSelector":["122b3e7d77a267a7","1cc9f22ddacba4ff"]}`))
	fs := ok(t, resp, "A")
	require.Len(t, fs, 1)
	rows := flameRows(t, fs[0])
	var want int64
	for _, f := range []string{"span-1.cpu.pb.gz", "span-2.cpu.pb.gz"} {
		for _, id := range []string{"122b3e7d77a267a7", "1cc9f22ddacba4ff"} {
			want += pproforacle.Top(t, pushedSpanProfile(t, f), pproforacle.Options{SampleType: "cpu", Labels: map[string]string{"span_id": id}}).Total
		}
	}
	assert.Equal(t, want, rows[0].Value, "the root is the spans' total")
	assert.Equal(t, int64(60_000_000), want)
}

// TestExemplarLinkOpensThatProfile: a metrics query with includeExemplars
// (as Grafana's datasource sends it) gives the series and an "exemplar"
// frame as Grafana's Pyroscope datasource shapes it; the exemplar's link is
// a profile query with profileIdSelector [id], and that query, sent back,
// is the flamegraph of that one profile, as google/pprof reads its file.
func TestExemplarLinkOpensThatProfile(t *testing.T) {
	d := spanReplayDS(t)
	resp := run(t, d, spanQuery("A", "metrics", `{"refId":"A","queryType":"metrics","profileTypeId":"process_cpu:cpu:nanoseconds:cpu:nanoseconds",
		"labelSelector":"{env=\"demo\"}","groupBy":[],"includeExemplars":true}`))
	fs := ok(t, resp, "A")
	require.Len(t, fs, 2, "one series and its exemplars")
	ex := fs[1]
	assert.Equal(t, "exemplar", ex.Name)
	require.NotNil(t, ex.Meta)
	assert.Equal(t, data.DataTopicAnnotations, ex.Meta.DataTopic)
	var names []string
	for _, f := range ex.Fields {
		names = append(names, f.Name)
	}
	assert.Equal(t, []string{"Time", "Value", "Id", "env", "pyroscope_spy", "service_name"}, names, "Grafana's fields; labels beginning with __ left out")
	require.Equal(t, 1, ex.Rows())
	id := ex.Fields[2]
	assert.Equal(t, "25b7a4ca-04d8-40d8-96a0-57b70fa5208a", id.At(0))
	assert.Equal(t, "Profile ID", id.Config.DisplayName)
	assert.Equal(t, "rec-spans", ex.Fields[5].At(0))
	assert.Equal(t, time.UnixMilli(1796181351311).UTC(), ex.Fields[0].At(0))
	require.Len(t, id.Config.Links, 1)
	link := id.Config.Links[0]
	require.NotNil(t, link.Internal)
	assert.Equal(t, "profiles", link.Internal.DatasourceUID)
	assert.Equal(t, "Profiles", link.Internal.DatasourceName)

	// Grafana interpolates ${__value.raw} with the clicked exemplar's id.
	q, err := json.Marshal(link.Internal.Query)
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(q, &m))
	assert.Equal(t, []any{"${__value.raw}"}, m["profileIdSelector"])
	m["profileIdSelector"] = []string{id.At(0).(string)}
	linked, err := json.Marshal(m)
	require.NoError(t, err)
	prof := ok(t, run(t, d, spanQuery("B", "profile", string(linked))), "B")
	require.Len(t, prof, 1)
	want := pproforacle.Top(t, pushedSpanProfile(t, "span-1.cpu.pb.gz"), pproforacle.Options{SampleType: "cpu"})
	assert.Equal(t, want.Total, flameRows(t, prof[0])[0].Value, "the linked flamegraph is that one profile")
	assert.Equal(t, float64(want.Total), ex.Fields[1].At(0), "the exemplar's value is that profile's total")
}

// TestSpanHistogramExemplarsLinkToSpansAndTraces: heatmapType "span" asks
// the span heatmap with span exemplars (recording 57); each exemplar's Id is
// a span id linking to that span's flamegraph, and its trace id links to the
// trace in the settings' tracing datasource.
func TestSpanHistogramExemplarsLinkToSpansAndTraces(t *testing.T) {
	d := spanReplayDS(t)
	resp := run(t, d, spanQuery("A", "histogram", `{"profileTypeId":"process_cpu:cpu:nanoseconds:cpu:nanoseconds",
		"labelSelector":"{service_name=\"rec-spans\"}","heatmapType":"span","includeExemplars":true}`))
	fs := ok(t, resp, "A")
	require.Len(t, fs, 2)
	var count int64
	cf, _ := fs[0].FieldByName("count")
	require.NotNil(t, cf)
	for i := 0; i < cf.Len(); i++ {
		count += cf.At(i).(int64)
	}
	assert.Equal(t, int64(603), count, "the cells count the spans")
	ex := fs[1]
	assert.Equal(t, "exemplar", ex.Name)
	id, _ := ex.FieldByName("Id")
	require.NotNil(t, id)
	assert.Equal(t, "Span ID", id.Config.DisplayName)
	assert.Equal(t, "c59390961efaa202", id.At(0))
	assert.Equal(t, []string{"${__value.raw}"}, id.Config.Links[0].Internal.Query.(map[string]any)["spanSelector"])
	trace, _ := ex.FieldByName("traceId")
	require.NotNil(t, trace)
	require.Len(t, trace.Config.Links, 1)
	assert.Equal(t, "tempo", trace.Config.Links[0].Internal.DatasourceUID)
}

// TestTraceFieldErrors: the trace fields are checked before any call.
func TestTraceFieldErrors(t *testing.T) {
	d := spanReplayDS(t)
	for js, want := range map[string]string{
		`{"profileTypeId":"process_cpu:cpu:nanoseconds:cpu:nanoseconds","spanSelector":["not-hex"]}`: `spanSelector[0]: "not-hex" is not a span id`,
		`{"profileTypeId":"process_cpu:cpu:nanoseconds:cpu:nanoseconds","profileIdSelector":[""]}`:   `profileIdSelector[0] is empty`,
		`{"profileTypeId":"process_cpu:cpu:nanoseconds:cpu:nanoseconds","heatmapType":"spans"}`:      `heatmapType: "spans" is not one of individual, span`,
	} {
		r := run(t, d, spanQuery("A", "profile", js)).Responses["A"]
		require.Error(t, r.Error, js)
		assert.Contains(t, r.Error.Error(), want)
		assert.Equal(t, backend.Status(http.StatusBadRequest), r.Status)
	}
}

// TestExemplarGoldenFrames keeps the frames of a metrics query with
// includeExemplars (recording 54) and of a span histogram with exemplars
// (57) in testdata/grafana/, which the frontend's tests read through
// @grafana/data's link code (src/datasource/exemplarLinks.test.ts). Run with
// -update to rewrite them.
func TestExemplarGoldenFrames(t *testing.T) {
	d := spanReplayDS(t)
	for name, c := range map[string]struct{ queryType, js string }{
		"exemplars_metrics": {"metrics", `{"profileTypeId":"process_cpu:cpu:nanoseconds:cpu:nanoseconds","labelSelector":"{env=\"demo\"}","includeExemplars":true}`},
		"exemplars_span_histogram": {"histogram", `{"profileTypeId":"process_cpu:cpu:nanoseconds:cpu:nanoseconds",
			"labelSelector":"{service_name=\"rec-spans\"}","heatmapType":"span","includeExemplars":true}`},
	} {
		t.Run(name, func(t *testing.T) {
			got, err := json.Marshal(ok(t, run(t, d, spanQuery("A", c.queryType, c.js)), "A"))
			require.NoError(t, err)
			golden := filepath.Join("testdata", "grafana", name+".golden.json")
			if *update {
				require.NoError(t, os.WriteFile(golden, append(got, '\n'), 0o644))
				return
			}
			want, err := os.ReadFile(golden)
			require.NoError(t, err, "run with -update to write %s", golden)
			require.JSONEq(t, string(want), string(got))
		})
	}
}

// TestGrafanaPyroscopeShapesOnOurStore sends the same Grafana-shaped
// queries to the embedded store holding the same two span-labelled pushes
// (recordings 41-42): a span selector gives those spans' samples, as
// google/pprof's -tagfocus counts them; includeExemplars gives one exemplar
// per profile, and each exemplar's link, sent back, is exactly that
// profile, as google/pprof reads its file.
func TestGrafanaPyroscopeShapesOnOurStore(t *testing.T) {
	url := plugintest.Store(t)
	files := []string{"span-1.cpu.pb.gz", "span-2.cpu.pb.gz"}
	for _, f := range files {
		plugintest.Ingest(t, url, "rec-spans{env=demo}", fixtures.Read(t, "pyroscope/pushed-profiles/"+f))
	}
	inst, err := NewDatasource(context.Background(), backend.DataSourceInstanceSettings{
		UID: "store", Name: "Store", Type: PluginID, URL: url, JSONData: json.RawMessage(`{"serverKind":"pyroscope","minStep":"1s"}`),
	})
	require.NoError(t, err)
	d := inst.(*Datasource)

	spans := []string{"122b3e7d77a267a7", "1cc9f22ddacba4ff"}
	fs := ok(t, run(t, d, spanQuery("A", "profile", `{"queryType":"profile","profileTypeId":"process_cpu:cpu:nanoseconds:cpu:nanoseconds",
		"labelSelector":"{service_name=\"rec-spans\"}","groupBy":[],"maxNodes":16384,"spanSelector":["`+spans[0]+`","`+spans[1]+`"]}`)), "A")
	var want int64
	for _, f := range files {
		for _, id := range spans {
			want += pproforacle.Top(t, pushedSpanProfile(t, f), pproforacle.Options{SampleType: "cpu", Labels: map[string]string{"span_id": id}}).Total
		}
	}
	assert.Equal(t, want, flameRows(t, fs[0])[0].Value, "the spans' samples, as pprof -tagfocus counts them")

	// the profiles are 4 s apart: with 1 s steps each point has its own exemplar
	mq := spanQuery("B", "metrics", `{"queryType":"metrics","profileTypeId":"process_cpu:cpu:nanoseconds:cpu:nanoseconds",
		"labelSelector":"{service_name=\"rec-spans\"}","includeExemplars":true}`)
	mq.MaxDataPoints = 3660
	fs = ok(t, run(t, d, mq), "B")
	var ex *data.Frame
	for _, f := range fs {
		if f.Name == "exemplar" {
			ex = f
		}
	}
	require.NotNil(t, ex, "an exemplar frame")
	require.Equal(t, 2, ex.Rows(), "one exemplar per pushed profile")
	id, _ := ex.FieldByName("Id")
	value, _ := ex.FieldByName("Value")
	totals := map[int64]bool{}
	for _, f := range files {
		totals[pproforacle.Top(t, pushedSpanProfile(t, f), pproforacle.Options{SampleType: "cpu"}).Total] = true
	}
	for i := 0; i < ex.Rows(); i++ {
		link := id.Config.Links[0].Internal.Query.(map[string]any)
		link["profileIdSelector"] = []string{id.At(i).(string)}
		js, err := json.Marshal(link)
		require.NoError(t, err)
		prof := ok(t, run(t, d, spanQuery("C", "profile", string(js))), "C")
		got := flameRows(t, prof[0])[0].Value
		assert.True(t, totals[got], "exemplar %d opens one pushed profile: %d is the pprof total of neither", i, got)
		assert.Equal(t, float64(got), value.At(i), "the exemplar's value is its profile's total")
		delete(totals, got)
	}
	assert.Empty(t, totals, "the two exemplars open the two profiles")
}

// TestSpanSelectorOnParcaIsRefused: a span selector sent to a Parca server
// (detected) is answered with a "not supported on Parca" error, not with
// the whole selection's flamegraph.
func TestSpanSelectorOnParcaIsRefused(t *testing.T) {
	d := parcaDS(t)
	r := run(t, d, parcaQuery("A", "profile", `{"profileTypeId":"`+cpuType+`","labelSelector":"{job=\"demo-labeled\"}","spanSelector":["122b3e7d77a267a7"]}`)).Responses["A"]
	require.Error(t, r.Error)
	assert.Contains(t, r.Error.Error(), "span selectors are not supported on Parca")
	assert.Equal(t, backend.Status(http.StatusNotImplemented), r.Status)
}
