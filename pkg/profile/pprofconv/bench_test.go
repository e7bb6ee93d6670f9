// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package pprofconv_test

import (
	"bytes"
	"os"
	"runtime"
	"runtime/pprof"
	"syscall"
	"testing"
	"time"

	"github.com/google/pprof/profile"
	"github.com/grafana/grafana-plugin-sdk-go/data"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/internal/fixtures"
	"github.com/emberscope/emberscope/pkg/datasource/dataframes"
	"github.com/emberscope/emberscope/pkg/profile/pprofconv"
)

// demoProfiles returns the first n of the consecutive 1 s CPU profiles of
// the demo service recorded in internal/fixtures/profiles/demo-cpu: distinct
// real profiles of one program, as continuous profiling produces them.
func demoProfiles(tb testing.TB, n int) [][]byte {
	tb.Helper()
	files := fixtures.Glob(tb, "profiles/demo-cpu/cpu-*.pb.gz")
	if len(files) < n {
		tb.Fatalf("%d demo profiles recorded, want %d", len(files), n)
	}
	out := make([][]byte, n)
	for i := range out {
		b, err := os.ReadFile(files[i])
		require.NoError(tb, err)
		out[i] = b
	}
	return out
}

// parseAll parses every profile with google/pprof.
func parseAll(tb testing.TB, raws [][]byte) []*profile.Profile {
	tb.Helper()
	ps := make([]*profile.Profile, len(raws))
	for i, b := range raws {
		p, err := profile.ParseData(b)
		require.NoError(tb, err)
		ps[i] = p
	}
	return ps
}

const mergeN = 50

// cpuSample is the sample index of "cpu nanoseconds" in Go CPU profiles.
const cpuSample = 1

// mergeFrame is the measured path: merge the pprof bytes ps (gzipped, as
// they arrive) into a tree with workers goroutines and turn it into a
// flamegraph frame.
func mergeFrame(tb testing.TB, ps [][]byte, workers int) *data.Frame {
	t, err := pprofconv.MergeProfiles(ps, cpuSample, workers)
	if err != nil {
		tb.Fatal(err)
	}
	return dataframes.Flamegraph(t, "nanoseconds")
}

// BenchmarkMerge merges 50 distinct consecutive CPU profiles of the demo
// service into one flamegraph frame from their gzipped bytes (emberscope, on
// one goroutine and on all cores) and, for reference, with google/pprof's
// profile.Merge of the same profiles already parsed (which does not make a
// frame), and parse + merge from the same bytes. Set
// MERGE_CPUPROFILE=file to profile the single-goroutine merge (look at it
// with -focus mergeFrame: the file also holds the untimed GCs); go test's
// -cpuprofile clashes with making a CPU profile for the inputs.
func BenchmarkMerge(b *testing.B) {
	raws := demoProfiles(b, mergeN)
	ps := parseAll(b, raws)
	for _, c := range []struct {
		name    string
		workers int
	}{{"emberscope", 1}, {"emberscope-parallel", 0}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			if f := os.Getenv("MERGE_CPUPROFILE"); f != "" && c.workers == 1 {
				w, err := os.Create(f)
				require.NoError(b, err)
				require.NoError(b, pprof.StartCPUProfile(w))
				defer func() { pprof.StopCPUProfile(); _ = w.Close() }()
			}
			for b.Loop() {
				// As in BenchmarkMergeRatio, each merge starts after a GC.
				b.StopTimer()
				runtime.GC()
				b.StartTimer()
				mergeFrame(b, raws, c.workers)
			}
		})
	}
	b.Run("pprof-parse-merge", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := profile.Merge(parseAll(b, raws)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("pprof-merge", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := profile.Merge(ps); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkMergeRatio alternates, inside one loop, on 50 distinct
// consecutive CPU profiles of the demo service: emberscope's merge of the
// gzipped bytes into a flamegraph frame on one goroutine, the same on all
// cores, google/pprof's profile.Merge of the profiles already parsed (its
// best case: parsing is not counted), and google/pprof's parse + merge of the
// same bytes; then the same from the profiles not gzipped (our merge, and
// ParseUncompressed + Merge). It reports for each wall time and process CPU time (user +
// system, all threads, so garbage collection counts) per merge, and how many
// times faster emberscope is by each measure. A GC runs, untimed, before each
// merge so that none pays for another's garbage; CPU time is what stays
// comparable when the machine is shared.
func BenchmarkMergeRatio(b *testing.B) {
	raws := demoProfiles(b, mergeN)
	ps := parseAll(b, raws)
	plain := make([][]byte, len(ps)) // the same profiles, not gzipped
	for i, p := range ps {
		var buf bytes.Buffer
		require.NoError(b, p.WriteUncompressed(&buf))
		plain[i] = buf.Bytes()
	}
	var wall, cpu [6]time.Duration
	run := func(i int, f func()) {
		b.StopTimer()
		runtime.GC()
		b.StartTimer()
		w0, c0 := time.Now(), cpuTime()
		f()
		wall[i] += time.Since(w0)
		cpu[i] += cpuTime() - c0
	}
	for b.Loop() {
		run(0, func() { mergeFrame(b, raws, 1) })
		run(1, func() { mergeFrame(b, raws, 0) })
		run(2, func() {
			if _, err := profile.Merge(ps); err != nil {
				b.Fatal(err)
			}
		})
		run(3, func() {
			if _, err := profile.Merge(parseAll(b, raws)); err != nil {
				b.Fatal(err)
			}
		})
		run(4, func() { mergeFrame(b, plain, 1) })
		run(5, func() {
			for i, raw := range plain {
				p, err := profile.ParseUncompressed(raw)
				if err != nil {
					b.Fatal(err)
				}
				ps[i] = p
			}
			if _, err := profile.Merge(ps); err != nil {
				b.Fatal(err)
			}
		})
	}
	n := float64(b.N)
	per := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / n }
	b.ReportMetric(per(wall[0]), "serial-wall-ns/merge")
	b.ReportMetric(per(cpu[0]), "serial-cpu-ns/merge")
	b.ReportMetric(per(wall[1]), "parallel-wall-ns/merge")
	b.ReportMetric(per(cpu[1]), "parallel-cpu-ns/merge")
	b.ReportMetric(per(wall[2]), "pprof-wall-ns/merge")
	b.ReportMetric(per(cpu[2]), "pprof-cpu-ns/merge")
	b.ReportMetric(per(wall[3]), "pprof-parse-wall-ns/merge")
	b.ReportMetric(per(cpu[3]), "pprof-parse-cpu-ns/merge")
	b.ReportMetric(float64(cpu[3])/float64(cpu[0]), "x-faster-than-parse-serial-cpu")
	b.ReportMetric(per(cpu[4]), "plain-serial-cpu-ns/merge")
	b.ReportMetric(per(cpu[5]), "plain-pprof-parse-cpu-ns/merge")
	b.ReportMetric(float64(cpu[5])/float64(cpu[4]), "x-faster-than-parse-plain-serial-cpu")
	b.ReportMetric(float64(cpu[2])/float64(cpu[4]), "x-faster-plain-serial-cpu")
	b.ReportMetric(float64(cpu[2])/float64(cpu[0]), "x-faster-serial-cpu")
	b.ReportMetric(float64(wall[2])/float64(wall[0]), "x-faster-serial-wall")
	b.ReportMetric(float64(cpu[2])/float64(cpu[1]), "x-faster-parallel-cpu")
	b.ReportMetric(float64(wall[2])/float64(wall[1]), "x-faster-parallel-wall")
}

// cpuTime returns the CPU time the process used so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
