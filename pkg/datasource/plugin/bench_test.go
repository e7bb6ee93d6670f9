// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"context"
	"testing"
	"time"

	"github.com/grafana/grafana-plugin-sdk-go/backend"
	"github.com/grafana/grafana-plugin-sdk-go/backend/httpclient"

	"github.com/emberscope/emberscope/internal/fixtures"
	"github.com/emberscope/emberscope/pkg/datasource/plugin/plugintest"
	"github.com/emberscope/emberscope/pkg/datasource/source"
	"github.com/emberscope/emberscope/pkg/datasource/source/pyroscope"
)

// benchStore holds the real profile bench-sort.cpu in a fresh store and
// returns its URL and the query range around the profile.
func benchStore(b *testing.B) (string, backend.TimeRange) {
	b.Helper()
	raw := fixtures.Read(b, pushedProfiles+"bench-sort.cpu.redated.pb.gz")
	url := plugintest.Store(b)
	plugintest.Ingest(b, url, "bench", raw)
	at := time.Unix(0, plugintest.Parse(b, raw).TimeNanos)
	return url, backend.TimeRange{From: at.Add(-time.Minute), To: at.Add(time.Minute)}
}

// BenchmarkQueryProfile is a whole "profile" query through the plugin:
// connect call to the store, levels to tree, truncation, frame.
func BenchmarkQueryProfile(b *testing.B) {
	url, tr := benchStore(b)
	inst, err := NewDatasource(context.Background(), backend.DataSourceInstanceSettings{URL: url})
	if err != nil {
		b.Fatal(err)
	}
	d := inst.(*Datasource)
	req := &backend.QueryDataRequest{Queries: []backend.DataQuery{{
		RefID: "A", QueryType: "profile", TimeRange: tr, MaxDataPoints: 100, Interval: time.Second,
		JSON: []byte(`{"profileTypeId":"` + cpuType + `"}`),
	}}}
	b.ReportAllocs()
	for b.Loop() {
		resp, err := d.QueryData(context.Background(), req)
		if err != nil || resp.Responses["A"].Error != nil {
			b.Fatal(err, resp.Responses["A"].Error)
		}
	}
}

// BenchmarkMergeStacks fetches the merged tree in Pyroscope's flamegraph
// format and rebuilds it; BenchmarkMergeProfileReference fetches the same
// merge as pprof and parses it with google/pprof, the reference to compare with.
func BenchmarkMergeStacks(b *testing.B) {
	c, sel := benchClient(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.MergeStacks(context.Background(), source.StacksRequest{Selection: sel}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkMergeProfileReference(b *testing.B) {
	c, sel := benchClient(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.MergeProfile(context.Background(), source.StacksRequest{Selection: sel}); err != nil {
			b.Fatal(err)
		}
	}
}

func benchClient(b *testing.B) (*pyroscope.Client, source.Selection) {
	url, tr := benchStore(b)
	c, err := pyroscope.New(url, httpclient.Options{})
	if err != nil {
		b.Fatal(err)
	}
	return c, source.Selection{ProfileTypeID: cpuType, LabelSelector: "{}", Range: source.TimeRange{From: tr.From, To: tr.To}}
}
