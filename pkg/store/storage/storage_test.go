// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package storage

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/google/pprof/profile"
	"github.com/prometheus/prometheus/model/labels"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/pkg/profile/flame"
	"github.com/emberscope/emberscope/pkg/profile/pprofconv"
)

// synthetic returns a profile whose samples are stacks main;f<i>;leaf<i%leaves>
// with a "req" label taking labelValues values (none when 0).
func synthetic(samples, leaves, labelValues int, sampleType string) *profile.Profile {
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: sampleType, Unit: "count"}},
		PeriodType: &profile.ValueType{Type: "cpu", Unit: "nanoseconds"},
	}
	if sampleType == "alloc_objects" {
		p.SampleType = append(p.SampleType, &profile.ValueType{Type: "inuse_objects", Unit: "count"})
	}
	loc := func(name string) *profile.Location {
		fn := &profile.Function{ID: uint64(len(p.Function) + 1), Name: name}
		l := &profile.Location{ID: uint64(len(p.Location) + 1), Line: []profile.Line{{Function: fn}}}
		p.Function, p.Location = append(p.Function, fn), append(p.Location, l)
		return l
	}
	root := loc("main")
	var mids, leafs []*profile.Location
	for i := 0; i < leaves; i++ {
		mids = append(mids, loc(fmt.Sprintf("mid%d", i)))
		leafs = append(leafs, loc(fmt.Sprintf("leaf%d", i)))
	}
	for i := 0; i < samples; i++ {
		s := &profile.Sample{Location: []*profile.Location{leafs[i%leaves], mids[i%leaves], root}, Value: make([]int64, len(p.SampleType))}
		for j := range s.Value {
			s.Value[j] = int64(i + 1)
		}
		if labelValues > 0 {
			s.Label = map[string][]string{"req": {fmt.Sprintf("r%d", i%labelValues)}}
		}
		p.Sample = append(p.Sample, s)
	}
	return p
}

func writesOf(t testing.TB, p *profile.Profile, ts int64, service string) []Write {
	t.Helper()
	res, err := pprofconv.Convert(p, pprofconv.Options{Naming: pprofconv.Naming{Fallback: service}})
	require.NoError(t, err)
	var ws []Write
	for i := range res.Series {
		s := &res.Series[i]
		ls := Labels{{Name: "__profile_type__", Value: s.Type.String()}, {Name: "service_name", Value: service}}
		ls = append(ls, s.Labels...)
		ls.Sort()
		ws = append(ws, Write{Labels: ls, Time: ts, Result: res, Series: s})
	}
	return ws
}

func total(t testing.TB, db *DB, ms ...*labels.Matcher) (int64, *flame.Tree) {
	t.Helper()
	tr := flame.New()
	snap := db.Snapshot()
	defer snap.Close()
	b := NewTreeBuilder(snap.View(), tr)
	require.NoError(t, snap.Scan(db.Select(ms, -1<<62, 1<<62), -1<<62, 1<<62, false, func(p *Profile) error {
		b.AddProfile(p)
		return nil
	}))
	b.Flush()
	return tr.Total(), tr
}

func TestAcknowledgedWritesSurviveKill(t *testing.T) {
	if dir := os.Getenv("EMBERSCOPE_STORAGE_KILL_DIR"); dir != "" {
		db, err := Open(Options{Dir: dir})
		require.NoError(t, err)
		_, err = db.Append(writesOf(t, synthetic(50, 5, 0, "cpu"), 1e18, "killed"))
		require.NoError(t, err)
		fmt.Println("acknowledged")
		_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
		time.Sleep(time.Minute)
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestAcknowledgedWritesSurviveKill$")
	cmd.Env = append(os.Environ(), "EMBERSCOPE_STORAGE_KILL_DIR="+dir)
	out, err := cmd.CombinedOutput()
	require.Error(t, err, "the child kills itself")
	require.Contains(t, string(out), "acknowledged")

	db, err := Open(Options{Dir: dir})
	require.NoError(t, err)
	defer db.Close()
	got, _ := total(t, db, labels.MustNewMatcher(labels.MatchEqual, "service_name", "killed"))
	require.Equal(t, int64(50*51/2), got)
}

func TestLabelledSamplesShareStacks(t *testing.T) {
	db, err := Open(Options{Dir: t.TempDir()})
	require.NoError(t, err)
	defer db.Close()
	// 400 samples over 4 distinct stacks and 100 label values.
	_, err = db.Append(writesOf(t, synthetic(400, 4, 100, "cpu"), 1, "app"))
	require.NoError(t, err)
	snap := db.Snapshot()
	defer snap.Close()
	v := snap.View()
	require.Equal(t, 1+1+4+4, v.Len(), "root, main, 4 mids, 4 leaves: stacks are stored once whatever the labels")
	require.Len(t, db.Select(nil, 0, 2), 100, "one series per label value")
	got, _ := total(t, db, labels.MustNewMatcher(labels.MatchEqual, "req", "r7"))
	require.Equal(t, int64(8+108+208+308), got)
}

func TestCumulativeValuesStoredAsSent(t *testing.T) {
	db, err := Open(Options{Dir: t.TempDir()})
	require.NoError(t, err)
	defer db.Close()
	alloc := labels.MustNewMatcher(labels.MatchEqual, "__profile_type__", "memory:alloc_objects:count:cpu:nanoseconds")
	p := synthetic(10, 2, 0, "alloc_objects")
	want := int64(0)
	for _, s := range p.Sample {
		want += s.Value[0]
	}
	now := time.Unix(1e9, 0)
	_, err = db.Append(writesOf(t, p, now.UnixNano(), "app"))
	require.NoError(t, err)
	got, _ := total(t, db, alloc)
	require.Equal(t, want, got, "the first cumulative profile is stored as sent, as Pyroscope v2 does")

	for _, s := range p.Sample {
		s.Value[0] += 5
	}
	_, err = db.Append(writesOf(t, p, now.Add(time.Minute).UnixNano(), "app"))
	require.NoError(t, err)
	got, _ = total(t, db, alloc)
	require.Equal(t, 2*want+50, got, "the second is stored as sent too: no server-side delta")
}
