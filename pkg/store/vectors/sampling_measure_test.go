// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package vectors_test

import (
	"cmp"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	noveltydata "github.com/emberscope/emberscope/internal/fixtures/noveltydata"
	"github.com/emberscope/emberscope/pkg/store"
	"github.com/emberscope/emberscope/pkg/store/vectors"
)

// dirSize is the bytes of the files under dir.
func dirSize(t *testing.T, dir string) int64 {
	var n int64
	require.NoError(t, filepath.Walk(dir, func(_ string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			n += fi.Size()
		}
		return err
	}))
	return n
}

// TestSamplingOnTheDemoWorkload stores the demo service's 32 recorded
// profiles (15 s apart, as the demo's SDK uploads) and two changed ones,
// with sampling off and on, and reports the disk each uses and what the
// sampled range's flamegraph loses: its total is exact; the stacks of the
// sampled-out profiles sit on one __sampled__ frame.
func TestSamplingOnTheDemoWorkload(t *testing.T) {
	entries := noveltydata.Stable(t, "rideshare", 0)
	entries = append(entries, noveltydata.Changed(t, "rideshare-hot-30"), noveltydata.Changed(t, "logindex-in-rideshare"))
	bodies := make([][]byte, len(entries))
	var want int64
	for i, e := range entries {
		bodies[i] = noveltydata.At(t, e, base.Add(time.Duration(i)*15*time.Second))
		want += pprofTotal(t, e)
	}
	type result struct {
		disk        int64
		total, lost int64
		self        map[string]int64
		sampled     int
	}
	measure := func(t *testing.T, opts vectors.Options) result {
		dir := t.TempDir()
		st, err := store.Open(store.Options{Dir: dir, Vectors: opts, NoIngestWindow: true, NoRetention: true})
		require.NoError(t, err)
		s := serve(t, st)
		for _, b := range bodies {
			s.ingest(`rideshare{}`, b)
		}
		var r result
		r.total, r.lost = s.flameTotal(`{service_name="rideshare"}`)
		r.self = s.flameSelf(`{service_name="rideshare"}`)
		_, _, r.sampled = points(t, s.selectVectors(`{service_name="rideshare"}`))
		s.close()
		r.disk = dirSize(t, dir)
		return r
	}
	// The two stores are measured side by side: most of the time is each
	// append's fsync, which the other store's work overlaps.
	var off, on result
	t.Run("stores", func(t *testing.T) {
		t.Run("without sampling", func(t *testing.T) {
			t.Parallel()
			off = measure(t, vectors.Options{})
		})
		t.Run("with sampling", func(t *testing.T) {
			t.Parallel()
			on = measure(t, vectors.Options{Sampling: vectors.Sampling{Enabled: true}})
		})
	})
	if t.Failed() {
		return
	}
	require.Equal(t, want, off.total)
	require.Equal(t, want, on.total, "totals stay exact with sampling")
	require.Zero(t, off.lost)
	require.Less(t, on.disk, off.disk, "sampling saves disk")
	// How the top functions' shares of the range change.
	type share struct {
		name    string
		off, on float64
	}
	var top []share
	for name, v := range off.self {
		top = append(top, share{name, float64(v) / float64(off.total), float64(on.self[name]) / float64(on.total)})
	}
	slices.SortFunc(top, func(a, b share) int { return cmp.Compare(b.off, a.off) })
	t.Logf("demo workload, %d profiles of the demo service's handlers 15 s apart (every sample-label series sampled on its own):", len(entries))
	t.Logf("disk: %d bytes without sampling, %d with (%.0f%% saved); stored profiles sampled out: %d", off.disk, on.disk, 100*(1-float64(on.disk)/float64(off.disk)), on.sampled)
	t.Logf("flamegraph of the range: total %d exact in both; %.1f%% of it on __sampled__ with sampling", on.total, 100*float64(on.lost)/float64(on.total))
	for _, s := range top[:min(5, len(top))] {
		t.Logf("  %-60s %5.1f%% of self without sampling, %5.1f%% with", s.name, 100*s.off, 100*s.on)
	}
}
