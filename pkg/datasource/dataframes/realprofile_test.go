// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package dataframes

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/grafana/grafana-plugin-sdk-go/data"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/internal/fixtures"
	"github.com/emberscope/emberscope/pkg/profile/flame"
	"github.com/emberscope/emberscope/pkg/profile/flame/flametest"
)

// treeFromFrame rebuilds a tree from a nested-set frame: a row's parent is the
// closest earlier row one level up. It is how a viewer reads the frame.
func treeFromFrame(t *testing.T, f *data.Frame) *flame.Tree {
	t.Helper()
	out := flame.New()
	var parents []flame.NodeID // parents[level] = last node seen at that level
	for i, r := range rows(t, f) {
		if i == 0 {
			require.Equal(t, int64(0), r.Level, "first row must be the root")
			parents = append(parents[:0], flame.Root)
			continue
		}
		require.True(t, r.Level >= 1 && int(r.Level) <= len(parents), "row %d: level %d after level %d", i, r.Level, len(parents)-1)
		n := out.Child(parents[r.Level-1], out.Intern(r.Label), flame.KindFunction)
		out.AddValue(n, r.Self)
		parents = append(parents[:r.Level], n)
	}
	return out
}

// TestFlamegraphRoundTripsRealProfiles reads the pushed pprof files, builds
// their trees, truncates them and checks the frame rebuilds the same tree.
func TestFlamegraphRoundTripsRealProfiles(t *testing.T) {
	files := fixtures.Glob(t, "*/pushed-profiles/*.pb.gz")
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			fh, err := os.Open(path)
			require.NoError(t, err)
			defer fh.Close()
			p, err := profile.Parse(fh)
			require.NoError(t, err)
			tr, err := flametest.FromProfile(p, len(p.SampleType)-1)
			require.NoError(t, err)
			require.Greater(t, tr.Len(), 1, "profile has no stacks")
			for _, max := range []int{64, 1024} {
				cut := flame.Truncate(tr, max)
				f := Flamegraph(cut, p.SampleType[len(p.SampleType)-1].Unit)
				assert.Equal(t, cut.Len(), f.Rows())
				assert.Equal(t, tr.Total(), mustField(t, f, FieldValue).At(0))
				assert.Equal(t, dumpNoKinds(cut), flametest.Dump(treeFromFrame(t, f)))
			}
		})
	}
}

// TestFlamegraphRoundTripsACPUProfile does the same with the recorded CPU
// profile of flametest.
func TestFlamegraphRoundTripsACPUProfile(t *testing.T) {
	tr, err := flametest.FromProfile(flametest.CPUProfile(t), 1)
	require.NoError(t, err)
	f := Flamegraph(tr, "nanoseconds")
	assert.Equal(t, flametest.Dump(tr), flametest.Dump(treeFromFrame(t, f)))
	labels := mustField(t, f, FieldLabel)
	var names []string
	for i := 0; i < labels.Len(); i++ {
		names = append(names, labelAt(labels, i))
	}
	assert.Contains(t, names, "main.burnHash")
}

// dumpNoKinds dumps t as if every node were a function frame, the way a
// rebuilt tree (which has no kinds) dumps.
func dumpNoKinds(t *flame.Tree) string {
	plain := flame.New()
	ids := make([]flame.NodeID, t.Len())
	t.Walk(func(n flame.NodeID, _ int) {
		if n == flame.Root {
			return
		}
		ids[n] = plain.Child(ids[t.Parent(n)], plain.Intern(t.Name(n)), flame.KindFunction)
		plain.AddValue(ids[n], t.Self(n))
	})
	return flametest.Dump(plain)
}
