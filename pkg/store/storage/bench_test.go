// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package storage

import (
	"context"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/stretchr/testify/require"
)

// BenchmarkStoreBytesPerProfile stores 360 distinct consecutive CPU profiles
// of the demo service 10 s apart (their samples carry the k6 labels and the
// service's category label), as recorded and with their sample labels
// removed, and reports the mean size of the gzipped pprof files, the bytes
// written per profile, and the disk bytes per profile after a flush and a
// compaction.
func BenchmarkStoreBytesPerProfile(b *testing.B) {
	raws, labelled := demoProfiles(b, hourOfProfiles)
	gz := 0
	for _, r := range raws {
		gz += len(r)
	}
	plain := make([]*profile.Profile, len(labelled))
	for i, p := range labelled {
		plain[i] = p.Copy()
		for _, s := range plain[i].Sample {
			s.Label = nil
		}
	}
	for _, c := range []struct {
		name string
		ps   []*profile.Profile
	}{{"labels", labelled}, {"no-labels", plain}} {
		b.Run(c.name, func(b *testing.B) {
			n := len(c.ps)
			for b.Loop() {
				db, err := Open(Options{Dir: b.TempDir()})
				require.NoError(b, err)
				written := 0
				for i, p := range c.ps {
					st, err := db.Append(writesOf(b, p, int64(i)*10e9, "app"))
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
