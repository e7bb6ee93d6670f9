// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"context"
	"encoding/json"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/grafana/grafana-plugin-sdk-go/backend"
	"github.com/grafana/grafana-plugin-sdk-go/data"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/pkg/datasource/source/parca"
	"github.com/emberscope/emberscope/pkg/datasource/source/parca/parcatest"
)

// parcaRecorded is the time range of the recorded Parca exchanges
// (internal/fixtures/parca/README.md).
var parcaRecorded = backend.TimeRange{
	From: time.Date(2026, 11, 29, 7, 50, 0, 0, time.UTC),
	To:   time.Date(2026, 11, 29, 8, 50, 0, 0, time.UTC),
}

// parcaDS is a datasource with serverKind "auto" in front of the replay of a
// real Parca v0.28.0 server's answers. At the end of the test it fails on
// requests that matched no recording, except the Pyroscope probe of the
// detection, which Parca answers with 404.
func parcaDS(t *testing.T) *Datasource {
	t.Helper()
	srv := parcatest.NewServer(t, parcatest.DefaultDir)
	inst, err := NewDatasource(context.Background(), backend.DataSourceInstanceSettings{
		UID: "parca", Type: PluginID, URL: srv.URL, JSONData: json.RawMessage(`{"serverKind":"auto","minStep":"15s"}`),
	})
	require.NoError(t, err)
	t.Cleanup(func() {
		for _, u := range srv.Unmatched() {
			assert.True(t, strings.Contains(u, "/querier.v1.QuerierService/ProfileTypes"), "request matched no Parca recording: %s", u)
		}
	})
	return inst.(*Datasource)
}

// parcaQuery is a query over the recorded range with 60 points, which makes
// the series step 60s as in the recorded query_range.
func parcaQuery(refID, queryType, js string) backend.DataQuery {
	return backend.DataQuery{RefID: refID, QueryType: queryType, JSON: json.RawMessage(js), TimeRange: parcaRecorded, MaxDataPoints: 60, Interval: time.Second}
}

func TestParcaEndToEnd(t *testing.T) {
	d := parcaDS(t)
	const sel = `{"profileTypeId":"` + cpuType + `","labelSelector":"{job=\"demo-labeled\"}"}`

	resp := run(t, d, parcaQuery("A", "profile", sel))
	frames := ok(t, resp, "A")
	require.Len(t, frames, 1)
	rows := flameRows(t, frames[0])
	require.Equal(t, flameRow{Level: 0, Value: 3770000000, Label: "total"}, rows[0], "root total = the recorded 3.77 s of CPU")
	self := selfByName(rows)
	assert.Equal(t, int64(290000000), self["slices.partitionOrdered"], "generic shapes removed, flat as in the recorded pprof")
	assert.Equal(t, int64(330000000), self["crypto/internal/fips140/sha256.blockSHANI"])

	ds, isDetecting := d.split.Inner().(*detectingSource)
	require.True(t, isDetecting, "serverKind auto detects the server")
	_, isParca := ds.src.(*parca.Client)
	require.True(t, isParca, "detection picked the Parca client, not %T", ds.src)

	resp = run(t, d, parcaQuery("B", "metrics", sel))
	frames = ok(t, resp, "B")
	require.Len(t, frames, 1, "one series")
	sum, n, _ := seriesSum(t, frames)
	assert.Equal(t, 1, n)
	assert.Equal(t, float64(3770000000), sum, "the series holds the same 3.77 s")
	ts, _ := frames[0].Fields[0].ConcreteAt(0)
	for i := 0; i < frames[0].Rows(); i++ {
		if v, _ := frames[0].Fields[1].FloatAt(i); v != 0 {
			ts, _ = frames[0].Fields[0].ConcreteAt(i)
		}
	}
	assert.Equal(t, time.Date(2026, 11, 29, 8, 35, 0, 0, time.UTC), ts, "the profile's minute")
	assert.Equal(t, data.VisTypeGraph, frames[0].Meta.PreferredVisualization)
}

func TestParcaResources(t *testing.T) {
	d := parcaDS(t)
	ms := func(t time.Time) string { return strconv.FormatInt(t.UnixMilli(), 10) }
	rng := url.Values{"start": {ms(parcaRecorded.From)}, "end": {ms(parcaRecorded.To)}}

	code, _, body := callResource(t, d, "GET", "labelNames", rng)
	require.Equal(t, 200, code, string(body))
	require.JSONEq(t, `["job"]`, string(body))

	p := url.Values{"label": {"job"}, "start": rng["start"], "end": rng["end"]}
	code, _, body = callResource(t, d, "GET", "labelValues", p)
	require.Equal(t, 200, code, string(body))
	require.JSONEq(t, `["demo-labeled","demo-mem","demo-sort"]`, string(body))

	// 08:38-08:50 holds only the memory profile: four memory types.
	late := url.Values{"start": {ms(time.Date(2026, 11, 29, 8, 38, 0, 0, time.UTC))}, "end": rng["end"]}
	code, _, body = callResource(t, d, "GET", "profileTypes", late)
	require.Equal(t, 200, code, string(body))
	var types []profileTypeJSON
	require.NoError(t, json.Unmarshal(body, &types))
	require.Len(t, types, 4)
	for _, pt := range types {
		assert.Equal(t, "memory", pt.Name, pt.ID)
	}
	assert.Contains(t, types, profileTypeJSON{ID: "memory:alloc_space:bytes:space:bytes", Label: "memory - alloc_space",
		Name: "memory", SampleType: "alloc_space", SampleUnit: "bytes", PeriodType: "space", PeriodUnit: "bytes"})
}
