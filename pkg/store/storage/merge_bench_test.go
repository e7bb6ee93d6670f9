// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package storage

import (
	"os"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/google/pprof/profile"
	"github.com/prometheus/prometheus/model/labels"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/internal/fixtures"
	"github.com/emberscope/emberscope/pkg/profile/flame"
)

// hourOfProfiles is an hour of profiles one every 10 s.
const hourOfProfiles = 360

// demoProfiles returns the gzipped bytes and the google/pprof parse of the
// first n consecutive CPU profiles of the demo service recorded in
// internal/fixtures/profiles/demo-cpu (distinct real profiles, 1 s each).
func demoProfiles(tb testing.TB, n int) ([][]byte, []*profile.Profile) {
	tb.Helper()
	files := fixtures.Glob(tb, "profiles/demo-cpu/cpu-*.pb.gz")
	if len(files) < n {
		tb.Fatalf("%d demo profiles recorded, want %d", len(files), n)
	}
	raws := make([][]byte, n)
	ps := make([]*profile.Profile, n)
	for i := range n {
		b, err := os.ReadFile(files[i])
		require.NoError(tb, err)
		p, err := profile.ParseData(b)
		require.NoError(tb, err)
		raws[i], ps[i] = b, p
	}
	return raws, ps
}

// BenchmarkQueryHour stores 360 distinct consecutive CPU profiles of the demo
// service 10 s apart (an hour of a 10 s continuous profiler; the profiles
// were recorded 1 s each), and then, alternating in one loop, merges the hour
// as a query does (series selection, snapshot, scan of the cpu profile type,
// flame tree) and merges the same 360 profiles with google/pprof's
// profile.Merge, already parsed (its best case) and parsed from their bytes.
// It reports process CPU time per merge and the ratios.
func BenchmarkQueryHour(b *testing.B) {
	raws, ps := demoProfiles(b, hourOfProfiles)
	db, err := Open(Options{Dir: b.TempDir()})
	require.NoError(b, err)
	defer db.Close()
	var want int64
	for i, p := range ps {
		_, err := db.Append(writesOf(b, p, int64(i)*10e9, "app"))
		require.NoError(b, err)
		for _, s := range p.Sample {
			want += s.Value[1]
		}
	}
	require.NoError(b, db.Flush())
	cpu := labels.MustNewMatcher(labels.MatchEqual, "__profile_type__", "process_cpu:cpu:nanoseconds:cpu:nanoseconds")
	measure := func(f func()) time.Duration {
		b.StopTimer()
		runtime.GC()
		b.StartTimer()
		c0 := cpuTime()
		f()
		return cpuTime() - c0
	}
	var query, merge, parseMerge time.Duration
	for b.Loop() {
		query += measure(func() {
			series := db.Select([]*labels.Matcher{cpu}, -1<<62, 1<<62)
			snap := db.Snapshot()
			defer snap.Close()
			tr := flame.New()
			tb := NewTreeBuilder(snap.View(), tr)
			if err := snap.Scan(series, -1<<62, 1<<62, false, func(p *Profile) error {
				tb.AddProfile(p)
				return nil
			}); err != nil {
				b.Fatal(err)
			}
			tb.Flush()
			if tr.Total() != want {
				b.Fatalf("the hour's total is %d, want %d", tr.Total(), want)
			}
		})
		merge += measure(func() {
			if _, err := profile.Merge(ps); err != nil {
				b.Fatal(err)
			}
		})
		parseMerge += measure(func() {
			parsed := make([]*profile.Profile, len(raws))
			for i, raw := range raws {
				p, err := profile.ParseData(raw)
				if err != nil {
					b.Fatal(err)
				}
				parsed[i] = p
			}
			if _, err := profile.Merge(parsed); err != nil {
				b.Fatal(err)
			}
		})
	}
	n := float64(b.N)
	b.ReportMetric(float64(query.Nanoseconds())/n, "query-cpu-ns/hour")
	b.ReportMetric(float64(merge.Nanoseconds())/n, "pprof-merge-cpu-ns/hour")
	b.ReportMetric(float64(parseMerge.Nanoseconds())/n, "pprof-parse-merge-cpu-ns/hour")
	b.ReportMetric(float64(merge)/float64(query), "x-faster-than-merge")
	b.ReportMetric(float64(parseMerge)/float64(query), "x-faster-than-parse-merge")
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
