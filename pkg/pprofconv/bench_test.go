package pprofconv_test

import (
	"os"
	"runtime"
	"runtime/pprof"
	"syscall"
	"testing"
	"time"

	"github.com/google/pprof/profile"
	"github.com/grafana/grafana-plugin-sdk-go/data"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/internal/testdata"
	"github.com/emberscope/emberscope/pkg/frames"
	"github.com/emberscope/emberscope/pkg/pprofconv"
)

// mergeInputs returns n parsed CPU profiles: the real CPU profiles of
// Parca's pushed set plus one recorded CPU profile, cycled (each input its
// own copy).
func mergeInputs(tb testing.TB, n int) []*profile.Profile {
	tb.Helper()
	var base []*profile.Profile
	for _, name := range []string{"bench-sort.cpu.redated.pb.gz", "labeled.cpu.redated.pb.gz"} {
		data := testdata.Read(tb, "parca/pushed-profiles/"+name)
		p, err := profile.ParseData(data)
		require.NoError(tb, err)
		base = append(base, p)
	}
	base = append(base, cpuProfile(tb))
	out := make([]*profile.Profile, n)
	for i := range out {
		out[i] = base[i%len(base)].Copy()
	}
	return out
}

const mergeN = 50

// cpuSample is the sample index of "cpu nanoseconds" in Go CPU profiles.
const cpuSample = 1

// mergeFrame is the measured path: merge ps into a tree with workers
// goroutines and turn it into a flamegraph frame.
func mergeFrame(tb testing.TB, ps []*profile.Profile, workers int) *data.Frame {
	t, err := pprofconv.MergeProfiles(ps, cpuSample, workers)
	if err != nil {
		tb.Fatal(err)
	}
	return frames.Flamegraph(t, "nanoseconds")
}

// BenchmarkMerge merges 50 parsed real CPU profiles into one flamegraph frame
// (emberscope, on one goroutine and on all cores) and, for reference, with
// google/pprof's profile.Merge (which does not make a frame). Set
// MERGE_CPUPROFILE=file to profile the single-goroutine merge (look at it
// with -focus mergeFrame: the file also holds the untimed GCs); go test's
// -cpuprofile clashes with making a CPU profile for the inputs.
func BenchmarkMerge(b *testing.B) {
	ps := mergeInputs(b, mergeN)
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
				mergeFrame(b, ps, c.workers)
			}
		})
	}
	b.Run("pprof", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := profile.Merge(ps); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkMergeRatio alternates, inside one loop, emberscope's merge into a
// flamegraph frame on one goroutine, the same on all cores, and
// profile.Merge, and reports for each wall time and process CPU time (user +
// system, all threads, so garbage collection counts) per merge, and how many
// times faster emberscope is by each measure. A GC runs, untimed, before each
// merge so that none pays for another's garbage; CPU time is what stays
// comparable when the machine is shared.
func BenchmarkMergeRatio(b *testing.B) {
	ps := mergeInputs(b, mergeN)
	var wall, cpu [3]time.Duration
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
		run(0, func() { mergeFrame(b, ps, 1) })
		run(1, func() { mergeFrame(b, ps, 0) })
		run(2, func() {
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
