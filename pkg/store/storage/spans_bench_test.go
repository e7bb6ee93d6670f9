// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package storage

import (
	"context"
	"os"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/internal/fixtures"
)

// spanProfiles returns the gzipped bytes and the google/pprof parse of the
// consecutive CPU profiles of the traced service recorded in
// internal/fixtures/profiles/spans-cpu (internal/fixtures/cmd/record-spans-cpu: OpenTelemetry
// SDK + otel-profiling-go, samples labelled span_id, trace_id, span_name).
func spanProfiles(tb testing.TB) ([][]byte, []*profile.Profile) {
	tb.Helper()
	files := fixtures.Glob(tb, "profiles/spans-cpu/cpu-*.pb.gz")
	require.NotEmpty(tb, files)
	raws := make([][]byte, len(files))
	ps := make([]*profile.Profile, len(files))
	for i, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(tb, err)
		p, err := profile.ParseData(b)
		require.NoError(tb, err)
		raws[i], ps[i] = b, p
	}
	return raws, ps
}

// BenchmarkStoreBytesPerSpanProfile stores the recorded span-labelled
// profiles 10 s apart into a fresh database as recorded, and again with
// their span_id and trace_id labels removed (span_name kept: it is a series
// label), and reports written and disk bytes per profile (after a flush and
// a full compaction) for both; the with/without ratio is in BENCHMARKS.md.
func BenchmarkStoreBytesPerSpanProfile(b *testing.B) {
	raws, spans := spanProfiles(b)
	gz := 0
	for _, r := range raws {
		gz += len(r)
	}
	stripped := make([]*profile.Profile, len(spans))
	for i, p := range spans {
		stripped[i] = p.Copy()
		for _, s := range stripped[i].Sample {
			delete(s.Label, "span_id")
			delete(s.Label, "trace_id")
		}
	}
	for _, c := range []struct {
		name string
		ps   []*profile.Profile
	}{{"span-ids", spans}, {"no-span-ids", stripped}} {
		b.Run(c.name, func(b *testing.B) {
			n := len(c.ps)
			for b.Loop() {
				db, err := Open(Options{Dir: b.TempDir()})
				require.NoError(b, err)
				written := 0
				for i, p := range c.ps {
					st, err := db.Append(writesOf(b, p, int64(i)*10e9, "traced"))
					require.NoError(b, err)
					written += st.Bytes
				}
				require.NoError(b, db.Flush())
				require.NoError(b, db.pdb.Compact(context.Background(), []byte{0}, []byte{0xff}, false))
				b.ReportMetric(float64(gz)/float64(n), "pprof-gz-bytes/profile")
				b.ReportMetric(float64(written)/float64(n), "written-bytes/profile")
				b.ReportMetric(float64(db.DiskSpaceUsage())/float64(n), "disk-bytes/profile")
				require.NoError(b, db.Close())
			}
		})
	}
}
