// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"context"
	"testing"
	"time"

	"github.com/grafana/grafana-plugin-sdk-go/backend"
	"github.com/grafana/grafana-plugin-sdk-go/data"
)

// benchFlamegraph is the flamegraph frame of the real bench-sort profile.
func benchFlamegraph(b *testing.B) *data.Frame {
	b.Helper()
	url, tr := benchStore(b)
	inst, err := NewDatasource(context.Background(), backend.DataSourceInstanceSettings{URL: url})
	if err != nil {
		b.Fatal(err)
	}
	resp, err := inst.(*Datasource).QueryData(context.Background(), &backend.QueryDataRequest{Queries: []backend.DataQuery{{
		RefID: "A", QueryType: "profile", TimeRange: tr, MaxDataPoints: 100, Interval: time.Second,
		JSON: []byte(`{"profileTypeId":"` + cpuType + `"}`),
	}}})
	if err != nil || resp.Responses["A"].Error != nil {
		b.Fatal(err, resp.Responses["A"].Error)
	}
	return resp.Responses["A"].Frames[0]
}

// BenchmarkLiveFingerprint is what a live stream spends, per run, deciding
// whether the flamegraph changed; BenchmarkLiveSendReference encodes the
// same frame as SendFrame does, the cost a send adds when it did change.
func BenchmarkLiveFingerprint(b *testing.B) {
	f := benchFlamegraph(b)
	b.ReportAllocs()
	for b.Loop() {
		_ = dataFingerprint(data.Frames{f})
	}
	b.ReportMetric(float64(f.Rows()), "rows")
}

func BenchmarkLiveSendReference(b *testing.B) {
	f := benchFlamegraph(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := data.FrameToJSON(f, data.IncludeAll); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(f.Rows()), "rows")
}
