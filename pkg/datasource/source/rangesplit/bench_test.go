// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package rangesplit

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/emberscope/emberscope/internal/fixtures"
	"github.com/emberscope/emberscope/pkg/datasource/plugin/plugintest"
	"github.com/emberscope/emberscope/pkg/datasource/source"
	"github.com/emberscope/emberscope/pkg/datasource/source/pyroscope"
	"github.com/emberscope/emberscope/pkg/store"
	"github.com/emberscope/emberscope/pkg/store/limits"
)

// BenchmarkWeek compares a week's flamegraph and hourly series asked in one
// call of the store without a limit ("whole") with the same asked of the
// store refusing ranges over a day, split into 7 pieces and merged
// ("split"); the stores hold the same 14 recorded CPU profiles, two a day.
// Compare the ns/op of the two sub-benchmarks of one run.
//
//	go test ./pkg/datasource/source/rangesplit/ -run '^$' -bench Week -benchtime 20x
func BenchmarkWeek(b *testing.B) {
	start := time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC)
	open := func(maxLen time.Duration) string {
		lim := limits.Backfill()
		lim.MaxQueryLength = maxLen
		st, err := store.Open(store.Options{Dir: b.TempDir(), Limits: &lim})
		if err != nil {
			b.Fatal(err)
		}
		srv := httptest.NewServer(st.Handler())
		b.Cleanup(func() { srv.Close(); _ = st.Close() })
		return srv.URL
	}
	whole, limited := open(0), open(24*time.Hour)
	for d := range 7 {
		for i, file := range []string{plugintest.CPUFile, plugintest.SecondCPUFile} {
			p := plugintest.Parse(b, fixtures.Profile(b, file))
			p.TimeNanos = start.Add(time.Duration(d)*24*time.Hour + time.Duration(3+12*i)*time.Hour).UnixNano()
			var buf bytes.Buffer
			if err := p.Write(&buf); err != nil {
				b.Fatal(err)
			}
			plugintest.Ingest(b, whole, "shop", buf.Bytes())
			plugintest.Ingest(b, limited, "shop", buf.Bytes())
		}
	}
	sel := source.Selection{ProfileTypeID: "process_cpu:cpu:nanoseconds:cpu:nanoseconds", LabelSelector: `{service_name="shop"}`,
		Range: source.TimeRange{From: start, To: start.Add(7 * 24 * time.Hour)}}
	run := func(b *testing.B, src source.Source) {
		ctx := context.Background()
		for b.Loop() {
			if _, err := src.MergeStacks(ctx, source.StacksRequest{Selection: sel, MaxNodes: 16384}); err != nil {
				b.Fatal(err)
			}
			if _, err := src.Series(ctx, source.SeriesRequest{Selection: sel, Step: time.Hour}); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.Run("whole", func(b *testing.B) { run(b, pyroscope.NewWithHTTPClient(whole, http.DefaultClient)) })
	b.Run("split", func(b *testing.B) {
		run(b, New(pyroscope.NewWithHTTPClient(limited, http.DefaultClient), Options{MaxQueryLength: 24 * time.Hour}))
	})
}
