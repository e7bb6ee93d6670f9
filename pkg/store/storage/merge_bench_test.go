package storage

import (
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/google/pprof/profile"
	"github.com/prometheus/prometheus/model/labels"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/internal/testdata"
	"github.com/emberscope/emberscope/pkg/flame"
)

// BenchmarkQueryMerge stores 50 real CPU profiles (the inputs of
// pprofconv's BenchmarkMergeRatio) and then, alternating in one loop, merges
// them as a query does (snapshot, scan of the cpu profile type, flame tree)
// and merges the same 50 parsed pprofs with google/pprof's profile.Merge.
// It reports process CPU time per merge for both and the ratio.
func BenchmarkQueryMerge(b *testing.B) {
	var base []*profile.Profile
	for _, name := range []string{"bench-sort.cpu.redated.pb.gz", "labeled.cpu.redated.pb.gz"} {
		data := testdata.Read(b, "parca/pushed-profiles/"+name)
		p, err := profile.ParseData(data)
		require.NoError(b, err)
		base = append(base, p)
	}
	p, err := profile.ParseData(testdata.Profile(b, "categories.cpu.pb.gz"))
	require.NoError(b, err)
	base = append(base, p)
	ps := make([]*profile.Profile, 50)
	db, err := Open(Options{Dir: b.TempDir()})
	require.NoError(b, err)
	defer db.Close()
	for i := range ps {
		ps[i] = base[i%len(base)].Copy()
		_, err := db.Append(writesOf(b, ps[i], int64(i)*1e10, "app"))
		require.NoError(b, err)
	}
	cpu := labels.MustNewMatcher(labels.MatchEqual, "__profile_type__", "process_cpu:cpu:nanoseconds:cpu:nanoseconds")
	var want int64
	for _, p := range ps {
		for _, s := range p.Sample {
			want += s.Value[1]
		}
	}
	var oursCPU, theirsCPU time.Duration
	for b.Loop() {
		b.StopTimer()
		runtime.GC()
		b.StartTimer()
		c0 := cpuTime()
		series := db.Select([]*labels.Matcher{cpu}, -1<<62, 1<<62)
		snap := db.Snapshot()
		tr := flame.New()
		tb := NewTreeBuilder(snap.View(), tr)
		if err := snap.Scan(series, -1<<62, 1<<62, false, func(p *Profile) error {
			tb.AddProfile(p)
			return nil
		}); err != nil {
			b.Fatal(err)
		}
		tb.Flush()
		snap.Close()
		c1 := cpuTime()
		if tr.Total() != want {
			b.Fatalf("merged total %d, want %d", tr.Total(), want)
		}
		b.StopTimer()
		runtime.GC()
		b.StartTimer()
		c2 := cpuTime()
		if _, err := profile.Merge(ps); err != nil {
			b.Fatal(err)
		}
		c3 := cpuTime()
		oursCPU += c1 - c0
		theirsCPU += c3 - c2
	}
	b.ReportMetric(float64(oursCPU.Nanoseconds())/float64(b.N), "query-cpu-ns/merge")
	b.ReportMetric(float64(theirsCPU.Nanoseconds())/float64(b.N), "pprof-cpu-ns/merge")
	b.ReportMetric(float64(theirsCPU)/float64(oursCPU), "x-faster-cpu")
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
