// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package ingest

import (
	"bytes"
	"context"
	"math"
	"testing"

	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/google/pprof/profile"
	pushv1 "github.com/grafana/pyroscope/api/gen/proto/go/push/v1"
	typesv1 "github.com/grafana/pyroscope/api/gen/proto/go/types/v1"

	"github.com/emberscope/emberscope/pkg/profile/model"
	"github.com/emberscope/emberscope/pkg/profile/pprofconv"
	"github.com/emberscope/emberscope/pkg/store/limits"
	"github.com/emberscope/emberscope/pkg/store/metrics"
	"github.com/emberscope/emberscope/pkg/store/storage"
)

// fuzzStore is an ingester over a database in memory, with the default
// limits but no time window (fuzzed profiles carry any time).
func fuzzStore(t *testing.T) (*Ingester, *storage.DB) {
	db, err := storage.Open(storage.Options{Dir: "/fuzz", FS: vfs.NewMem()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return New(Options{DB: db, Metrics: metrics.New(), Limits: limits.Backfill()}), db
}

// storedTotals sums the stored profile totals per profile type ID.
func storedTotals(t *testing.T, db *storage.DB) map[string]int64 {
	ids := db.Select(nil, math.MinInt64, math.MaxInt64)
	out := map[string]int64{}
	err := db.Scan(ids, math.MinInt64, math.MaxInt64, true, func(p *storage.Profile) error {
		out[db.SeriesLabels(p.Series).Get(model.LabelNameProfileType)] += p.Total
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// expectedTotals sums each sample type of the profile as google/pprof
// parsed it, per profile type ID: values are stored as sent, cumulative
// alloc_* included, as Pyroscope v2 stores them.
func expectedTotals(p *profile.Profile, naming pprofconv.Naming) (map[string]int64, map[string]bool) {
	want, skip := map[string]int64{}, map[string]bool{}
	for i := range p.SampleType {
		id := naming.TypeOf(p, i).String()
		for _, s := range p.Sample {
			want[id] += s.Value[i]
		}
	}
	for id, v := range want {
		if v == 0 {
			delete(want, id)
		}
	}
	return want, skip
}

func compareTotals(t *testing.T, db *storage.DB, want map[string]int64, skip map[string]bool) {
	t.Helper()
	got := storedTotals(t, db)
	for id := range skip {
		delete(got, id)
		delete(want, id)
	}
	for id, v := range got {
		if v == 0 {
			delete(got, id)
		}
	}
	if len(got) != len(want) {
		t.Fatalf("stored types %v, parsed %v", got, want)
	}
	for id, v := range want {
		if got[id] != v {
			t.Fatalf("%s: stored total %d, parsed profile %d", id, got[id], v)
		}
	}
}

func nothingStored(t *testing.T, db *storage.DB) {
	t.Helper()
	if got := storedTotals(t, db); len(got) != 0 {
		t.Fatalf("a refused request stored %v", got)
	}
}

// pprofSeeds is a small real-shaped pprof (gzipped): two sample types,
// shared frames, a sample label. Small seeds keep the fuzzer fast.
func pprofSeeds(f *testing.F) []byte {
	fn := func(id uint64, name string) *profile.Function {
		return &profile.Function{ID: id, Name: name, Filename: "main.go"}
	}
	fs := []*profile.Function{fn(1, "main.main"), fn(2, "main.work"), fn(3, "runtime.mallocgc")}
	locs := make([]*profile.Location, len(fs))
	for i, f := range fs {
		locs[i] = &profile.Location{ID: uint64(i + 1), Line: []profile.Line{{Function: f, Line: int64(10 * (i + 1))}}}
	}
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		PeriodType: &profile.ValueType{Type: "cpu", Unit: "nanoseconds"}, Period: 10_000_000,
		TimeNanos: 1_700_000_000_000_000_000,
		Function:  fs, Location: locs,
		Sample: []*profile.Sample{
			{Location: []*profile.Location{locs[1], locs[0]}, Value: []int64{3, 30_000_000}},
			{Location: []*profile.Location{locs[2], locs[1], locs[0]}, Value: []int64{1, 10_000_000}, Label: map[string][]string{"route": {"/api"}}},
		},
	}
	var buf bytes.Buffer
	if err := p.Write(&buf); err != nil {
		f.Fatal(err)
	}
	return buf.Bytes()
}

// FuzzStorePprof stores fuzzed pprof bodies: what is accepted is stored with
// the totals google/pprof parses, what is refused stores nothing.
func FuzzStorePprof(f *testing.F) {
	data := pprofSeeds(f)
	f.Add(data)
	raw, _ := gunzipIfNeeded(data)
	f.Add(raw)
	f.Add(raw[:len(raw)/2])
	f.Fuzz(func(t *testing.T, body []byte) {
		if len(body) > 1<<20 {
			return
		}
		in, db := fuzzStore(t)
		p, _, err := in.parsePprof(body)
		if err != nil {
			return
		}
		oracle, err := profile.ParseData(body)
		if err != nil {
			t.Fatalf("we parsed a profile google/pprof refuses: %v", err)
		}
		naming := pprofconv.Naming{Fallback: "fuzz"}
		err = in.Store([]Input{{Profile: p, Labels: storage.Labels{{Name: model.LabelNameServiceName, Value: "fuzz"}}, Naming: naming}})
		if err != nil {
			nothingStored(t, db)
			return
		}
		want, skip := expectedTotals(oracle, naming)
		compareTotals(t, db, want, skip)
	})
}

// FuzzStoreFolded stores fuzzed folded bodies and compares the stored total
// with the parsed profile's.
func FuzzStoreFolded(f *testing.F) {
	f.Add([]byte("main;work;hot 3\nmain;idle 0\n"))
	f.Add([]byte("a;b 1\na;b 2\nc 9223372036854775807\n"))
	f.Add([]byte("x\xff;y 1\n"))
	f.Fuzz(func(t *testing.T, body []byte) {
		if len(body) > 1<<20 {
			return
		}
		in, db := fuzzStore(t)
		p, hints, err := ParseFolded(body, "", 100)
		if err != nil {
			return
		}
		var want int64
		for _, s := range p.Sample {
			want += s.Value[0]
		}
		naming := pprofconv.Naming{Fallback: "fuzz", Hints: hints}
		if err := in.Store([]Input{{Profile: p, Labels: storage.Labels{{Name: model.LabelNameServiceName, Value: "fuzz"}}, Naming: naming}}); err != nil {
			nothingStored(t, db)
			return
		}
		got := storedTotals(t, db)["process_cpu:cpu:nanoseconds:cpu:nanoseconds"]
		if got != want {
			t.Fatalf("stored total %d, parsed profile %d", got, want)
		}
	})
}

// FuzzPushBody feeds fuzzed push.v1 request bodies to the Push handler:
// every raw profile of an accepted request is stored with its totals; a
// refused request stores nothing.
func FuzzPushBody(f *testing.F) {
	data := pprofSeeds(f)
	seed, _ := (&pushv1.PushRequest{Series: []*pushv1.RawProfileSeries{{
		Labels:  []*typesv1.LabelPair{{Name: "service_name", Value: "svc"}, {Name: "env", Value: "prod"}},
		Samples: []*pushv1.RawSample{{RawProfile: data}, {RawProfile: data}},
	}}}).MarshalVT()
	f.Add(seed)
	f.Add(seed[:len(seed)/2])
	f.Fuzz(func(t *testing.T, body []byte) {
		if len(body) > 1<<20 {
			return
		}
		var req pushv1.PushRequest
		if err := req.UnmarshalVT(body); err != nil {
			return
		}
		in, db := fuzzStore(t)
		if err := NewPusher(in).push(context.Background(), &req); err != nil {
			nothingStored(t, db)
			return
		}
		want, skip := map[string]int64{}, map[string]bool{}
		for _, s := range req.Series {
			naming := pprofconv.Naming{}
			for _, l := range s.Labels {
				if l.Name == model.LabelNameProfileName {
					naming.Name = l.Value
				}
			}
			for _, raw := range s.Samples {
				oracle, err := profile.ParseData(raw.RawProfile)
				if err != nil {
					t.Fatalf("stored a raw profile google/pprof refuses: %v", err)
				}
				w, sk := expectedTotals(oracle, naming)
				for id, v := range w {
					want[id] += v
				}
				for id := range sk {
					skip[id] = true
				}
			}
		}
		compareTotals(t, db, want, skip)
	})
}
