package pprofconv_test

import (
	"os"
	"path/filepath"
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
	want, err := pprofconv.ToTree(merged, 1)
	require.NoError(t, err)
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
// loop, so that both see the same machine load, and reports each one's
// ns per merge and how many times faster the flame tree merge is.
func BenchmarkMergeRatio(b *testing.B) {
	ps := mergeInputs(b, mergeN)
	var ours, theirs time.Duration
	for b.Loop() {
		t0 := time.Now()
		m := pprofconv.NewMerger(flame.New())
		for _, p := range ps {
			if err := m.Add(p, 1); err != nil {
				b.Fatal(err)
			}
		}
		m.Flush()
		t1 := time.Now()
		if _, err := profile.Merge(ps); err != nil {
			b.Fatal(err)
		}
		t2 := time.Now()
		ours += t1.Sub(t0)
		theirs += t2.Sub(t1)
	}
	b.ReportMetric(float64(ours.Nanoseconds())/float64(b.N), "emberscope-ns/merge")
	b.ReportMetric(float64(theirs.Nanoseconds())/float64(b.N), "pprof-ns/merge")
	b.ReportMetric(float64(theirs)/float64(ours), "x-faster")
}
