// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package querier

import (
	"context"
	"os"
	"runtime"
	"syscall"
	"testing"
	"time"

	"connectrpc.com/connect"
	"github.com/google/pprof/profile"
	querierv1 "github.com/grafana/pyroscope/api/gen/proto/go/querier/v1"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/internal/fixtures"
	"github.com/emberscope/emberscope/pkg/profile/model"
	"github.com/emberscope/emberscope/pkg/profile/pprofconv"
	"github.com/emberscope/emberscope/pkg/store/storage"
)

// BenchmarkSpanSelectorHour stores the recorded span-labelled CPU profiles
// of a traced service (internal/fixtures/profiles/spans-cpu, 360 distinct
// 1 s profiles) 10 s apart, an hour of them, and then alternates, GC
// untimed before each: the store's SelectMergeStacktraces with a
// spanSelector of two spans over the hour (series selection, scan, the
// samples of those spans, flamegraph), and google/pprof selecting the same
// samples of the same profiles already parsed with FilterSamplesByTag
// (on copies: it filters in place) and merging them with profile.Merge. Both
// totals are checked equal. It reports process CPU time per query and the
// ratio.
func BenchmarkSpanSelectorHour(b *testing.B) {
	files := fixtures.Glob(b, "profiles/spans-cpu/cpu-*.pb.gz")
	db, err := storage.Open(storage.Options{Dir: b.TempDir()})
	require.NoError(b, err)
	defer db.Close()
	var ps []*profile.Profile
	for i, f := range files {
		raw, err := os.ReadFile(f)
		require.NoError(b, err)
		p, err := profile.ParseData(raw)
		require.NoError(b, err)
		p.TimeNanos = int64(i) * 10e9
		ps = append(ps, p)
		res, err := pprofconv.Convert(p, pprofconv.Options{})
		require.NoError(b, err)
		id := storage.NewProfileID()
		var ws []storage.Write
		for j := range res.Series {
			s := &res.Series[j]
			ls := storage.Labels{{Name: model.LabelNameProfileType, Value: s.Type.String()}, {Name: model.LabelNameServiceName, Value: "traced"}}
			ls = append(ls, s.Labels...)
			ls.Sort()
			ws = append(ws, storage.Write{Labels: ls, Time: p.TimeNanos, Result: res, Series: s, ProfileID: id})
		}
		_, err = db.Append(ws)
		require.NoError(b, err)
	}
	require.NoError(b, db.Flush())
	// Two spans of the middle of the hour.
	var spans []string
	for _, s := range ps[len(ps)/2].Sample {
		if v := s.Label["span_id"]; len(v) > 0 && (len(spans) == 0 || spans[0] != v[0]) {
			spans = append(spans, v[0])
			if len(spans) == 2 {
				break
			}
		}
	}
	require.Len(b, spans, 2)
	want := map[string]bool{spans[0]: true, spans[1]: true}
	focus := func(s *profile.Sample) bool { v := s.Label["span_id"]; return len(v) > 0 && want[v[0]] }
	q := New(db)
	maxNodes := int64(16384)
	req := &querierv1.SelectMergeStacktracesRequest{
		ProfileTypeID: "process_cpu:cpu:nanoseconds:cpu:nanoseconds", LabelSelector: `{service_name="traced"}`,
		Start: 0, End: int64(len(ps)) * 10e3, MaxNodes: &maxNodes, SpanSelector: spans,
	}
	measure := func(f func()) time.Duration {
		b.StopTimer()
		runtime.GC()
		b.StartTimer()
		c0 := cpuTime()
		f()
		return cpuTime() - c0
	}
	var ours, theirs time.Duration
	var ourTotal, theirTotal int64
	for b.Loop() {
		ours += measure(func() {
			resp, err := q.SelectMergeStacktraces(context.Background(), connect.NewRequest(req))
			if err != nil {
				b.Fatal(err)
			}
			ourTotal = resp.Msg.Flamegraph.Total
		})
		theirs += measure(func() {
			filtered := make([]*profile.Profile, len(ps))
			for i, p := range ps {
				c := p.Copy()
				c.FilterSamplesByTag(focus, nil)
				filtered[i] = c
			}
			m, err := profile.Merge(filtered)
			if err != nil {
				b.Fatal(err)
			}
			theirTotal = 0
			for _, s := range m.Sample {
				theirTotal += s.Value[1]
			}
		})
	}
	require.NotZero(b, ourTotal)
	require.Equal(b, theirTotal, ourTotal, "the spans' total")
	n := float64(b.N)
	b.ReportMetric(float64(len(ps)), "profiles")
	b.ReportMetric(float64(ours.Nanoseconds())/n, "query-cpu-ns/hour")
	b.ReportMetric(float64(theirs.Nanoseconds())/n, "pprof-filter-merge-cpu-ns/hour")
	b.ReportMetric(float64(theirs)/float64(ours), "x-faster-than-pprof")
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
