package pprofconv_test

import (
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/google/pprof/profile"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/pkg/flame"
	"github.com/emberscope/emberscope/pkg/pprofconv"
)

// mergeInputs returns n parsed CPU profiles: the shared real CPU profiles
// from Parca's pushed set plus one made here, cycled (each input its own copy).
func mergeInputs(tb testing.TB, n int) []*profile.Profile {
	tb.Helper()
	var base []*profile.Profile
	dir := filepath.Join("..", "..", "..", "shared", "parca", "pushed-profiles")
	for _, name := range []string{"bench-sort.cpu.redated.pb.gz", "labeled.cpu.redated.pb.gz"} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			tb.Skipf("shared real profiles missing (%v); the merge benchmark needs %s", err, dir)
		}
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

func TestMergeAgreesWithPprof(t *testing.T) {
	ps := mergeInputs(t, mergeN)
	tr := flame.New()
	m := pprofconv.NewMerger(tr)
	for _, p := range ps {
		require.NoError(t, m.Add(p, 1))
	}
	m.Flush()
	merged, err := profile.Merge(ps)
	require.NoError(t, err)
	want := pprofconv.ToTree(merged, 1)
	require.Equal(t, want.Total(), tr.Total())
	require.Equal(t, want.Len(), tr.Len())
	require.Equal(t, selfByName(want), selfByName(tr))
}

// BenchmarkMerge merges 50 parsed real CPU profiles into one flame tree
// (emberscope) and, for reference, with google/pprof's profile.Merge.
func BenchmarkMerge(b *testing.B) {
	ps := mergeInputs(b, mergeN)
	b.Run("emberscope", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			m := pprofconv.NewMerger(flame.New())
			for _, p := range ps {
				if err := m.Add(p, 1); err != nil {
					b.Fatal(err)
				}
			}
			m.Flush()
		}
	})
	b.Run("pprof", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := profile.Merge(ps); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkMergeRatio alternates the two merges of BenchmarkMerge inside one
// loop and reports, for each, wall time and process CPU time (user + system,
// all threads, so garbage collection counts) per merge, and how many times
// faster the flame tree merge is by each measure. A GC runs, untimed, before
// each merge so that neither pays for the other's garbage; CPU time is what
// stays comparable when the machine is shared.
func BenchmarkMergeRatio(b *testing.B) {
	ps := mergeInputs(b, mergeN)
	var oursWall, theirsWall, oursCPU, theirsCPU time.Duration
	for b.Loop() {
		b.StopTimer()
		runtime.GC()
		b.StartTimer()
		w0, c0 := time.Now(), cpuTime()
		m := pprofconv.NewMerger(flame.New())
		for _, p := range ps {
			if err := m.Add(p, 1); err != nil {
				b.Fatal(err)
			}
		}
		m.Flush()
		w1, c1 := time.Now(), cpuTime()
		b.StopTimer()
		runtime.GC()
		b.StartTimer()
		w2, c2 := time.Now(), cpuTime()
		if _, err := profile.Merge(ps); err != nil {
			b.Fatal(err)
		}
		w3, c3 := time.Now(), cpuTime()
		oursWall += w1.Sub(w0)
		theirsWall += w3.Sub(w2)
		oursCPU += c1 - c0
		theirsCPU += c3 - c2
	}
	n := float64(b.N)
	b.ReportMetric(float64(oursWall.Nanoseconds())/n, "emberscope-wall-ns/merge")
	b.ReportMetric(float64(theirsWall.Nanoseconds())/n, "pprof-wall-ns/merge")
	b.ReportMetric(float64(oursCPU.Nanoseconds())/n, "emberscope-cpu-ns/merge")
	b.ReportMetric(float64(theirsCPU.Nanoseconds())/n, "pprof-cpu-ns/merge")
	b.ReportMetric(float64(theirsWall)/float64(oursWall), "x-faster-wall")
	b.ReportMetric(float64(theirsCPU)/float64(oursCPU), "x-faster-cpu")
}

// cpuTime returns the CPU time the process used so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
