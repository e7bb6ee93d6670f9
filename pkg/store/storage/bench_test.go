package storage

import (
	"context"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/internal/testdata"
)

// BenchmarkStoreBytesPerProfile stores the same real CPU profile (recorded
// with runtime/pprof, samples labelled with pprof.Do) 200 times at different
// times, with and without its sample labels (also Parca's labelled CPU
// profile), and reports the bytes written
// per profile and the disk bytes per profile after a flush and compaction.
func BenchmarkStoreBytesPerProfile(b *testing.B) {
	sources := map[string][]byte{
		"generated":     testdata.Profile(b, "categories.cpu.pb.gz"),
		"parca-labeled": testdata.Read(b, "parca/pushed-profiles/labeled.cpu.redated.pb.gz"),
	}
	type run struct {
		name string
		p    *profile.Profile
		size int
	}
	var runs []run
	for name, data := range sources {
		labelled, err := profile.ParseData(data)
		require.NoError(b, err)
		plain := labelled.Copy()
		for _, s := range plain.Sample {
			s.Label = nil
		}
		runs = append(runs, run{name + "/labels", labelled, len(data)}, run{name + "/no-labels", plain, len(data)})
	}
	for _, c := range runs {
		b.Run(c.name, func(b *testing.B) {
			const n = 200
			for b.Loop() {
				db, err := Open(Options{Dir: b.TempDir()})
				require.NoError(b, err)
				written := 0
				for i := 0; i < n; i++ {
					st, err := db.Append(writesOf(b, c.p, int64(i)*1e10, "app"))
					require.NoError(b, err)
					written += st.Bytes
				}
				require.NoError(b, db.Flush())
				require.NoError(b, db.pdb.Compact(context.Background(), []byte{0}, []byte{0xff}, false))
				b.ReportMetric(float64(c.size), "pprof-gz-bytes")
				b.ReportMetric(float64(written)/n, "written-bytes/profile")
				b.ReportMetric(float64(db.DiskSpaceUsage())/n, "disk-bytes/profile")
				require.NoError(b, db.Close())
			}
		})
	}
}
