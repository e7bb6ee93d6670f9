// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package store_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"connectrpc.com/connect"
	"github.com/google/pprof/profile"
	"github.com/grafana/pyroscope-go/upstream"
	"github.com/grafana/pyroscope-go/upstream/remote"
	pushv1 "github.com/grafana/pyroscope/api/gen/proto/go/push/v1"
	querierv1 "github.com/grafana/pyroscope/api/gen/proto/go/querier/v1"
	typesv1 "github.com/grafana/pyroscope/api/gen/proto/go/types/v1"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/internal/fixtures"
	"github.com/emberscope/emberscope/internal/pproforacle"
)

// heapOracle is google/pprof's report (go tool pprof -top) on a recorded heap
// profile: "heap-1.pb.gz" (one round of allocations) or "heap-2.pb.gz" (two,
// the same process later, so its alloc_* values include the first round's).
func heapOracle(t *testing.T, file, sampleType string) pproforacle.Report {
	t.Helper()
	return pproforacle.Top(t, fixtures.ProfilePath(t, file), pproforacle.Options{SampleType: sampleType})
}

// TestHeapProfilesStoredAsSent checks that heap profiles are stored as
// sent, cumulative alloc_* included, as Pyroscope v2 stores them: no
// baseline, no server-side delta (recordings 20 and 21).
func TestHeapProfilesStoredAsSent(t *testing.T) {
	s := newServer(t, t.TempDir())
	first := fixtures.Profile(t, "heap-1.pb.gz")
	second := fixtures.Profile(t, "heap-2.pb.gz")
	p1, p2 := parse(t, first), parse(t, second)
	require.NotEqual(t, p1.TimeNanos, p2.TimeNanos)

	status, text := s.ingest(ingestParams("heap"), "", first)
	require.Equal(t, 200, status, text)
	alloc1 := heapOracle(t, "heap-1.pb.gz", "alloc_space").Total
	require.NotZero(t, alloc1)
	require.Equal(t, alloc1, s.flame("memory:alloc_space:bytes:space:bytes", "{}", 0).total,
		"a single heap profile has its alloc_space as sent")

	status, text = s.ingest(ingestParams("heap"), "", second)
	require.Equal(t, 200, status, text)
	for _, sampleType := range []string{"alloc_objects", "alloc_space", "inuse_objects", "inuse_space"} {
		typeID := "memory:" + sampleType + ":" + map[bool]string{true: "bytes", false: "count"}[strings.HasSuffix(sampleType, "_space")] + ":space:bytes"
		got := s.flame(typeID, `{service_name="heap"}`, 1<<20)
		f1, f2 := heapOracle(t, "heap-1.pb.gz", sampleType), heapOracle(t, "heap-2.pb.gz", sampleType)
		// Stored as sent: the two profiles' values add up, alloc_* included.
		want := f2.Flat()
		for name, v := range f1.Flat() {
			want[name] += v
		}
		require.Equal(t, f1.Total+f2.Total, got.total, typeID)
		require.Equal(t, withoutZero(want), got.self, typeID)
	}
	// The allocating functions appear with their own names.
	got := s.flame("memory:alloc_space:bytes:space:bytes", "{}", 0)
	require.True(t, got.names["main.allocLarge"])
}

func TestBadInputIsRefusedAndNothingStored(t *testing.T) {
	s := newServer(t, t.TempDir())
	data := cpuData(t)
	raw := parse(t, data)
	var plain strings.Builder
	require.NoError(t, raw.WriteUncompressed(&plain))
	cases := []struct {
		name   string
		params url.Values
		body   []byte
		want   string
	}{
		{"truncated gzip", ingestParams("app"), data[:len(data)/2], "invalid gzip data"},
		{"truncated pprof", ingestParams("app"), []byte(plain.String()[:len(plain.String())/2]), "invalid pprof"},
		{"garbage", ingestParams("app"), []byte("\x0a\xff\xff\xff\xffnot a profile"), "invalid pprof"},
		{"empty", ingestParams("app"), nil, "empty body"},
		{"bad name", ingestParams("app{env}"), data, `label "env" has no '='`},
		{"no name", ingestParams(""), data, "service name is required"},
		{"bad format", url.Values{"name": {"app"}, "format": {"jfr"}}, data, `unsupported format "jfr"`},
		{"bad time", url.Values{"name": {"app"}, "from": {"yesterday"}}, data, `invalid time "yesterday"`},
		{"bad folded", url.Values{"name": {"app"}, "format": {"folded"}}, []byte("a;b 1\na;b x\n"), "line 2"},
	}
	for i, c := range cases {
		status, text := s.ingest(c.params, "", c.body)
		want := 400
		if i < 4 || c.name == "bad folded" {
			want = 422 // a profile that cannot be parsed, as Pyroscope answers it
		}
		require.Equal(t, want, status, c.name)
		var e struct{ Code, Message string }
		require.NoError(t, json.Unmarshal([]byte(text), &e), "%s: a JSON error as Pyroscope's: %s", c.name, text)
		require.Contains(t, e.Message, c.want, c.name)
	}
	// A push whose second profile is corrupt stores nothing, not even the first.
	_, err := s.pusher.Push(context.Background(), connect.NewRequest(&pushv1.PushRequest{Series: []*pushv1.RawProfileSeries{{
		Labels:  []*typesv1.LabelPair{{Name: "service_name", Value: "app"}},
		Samples: []*pushv1.RawSample{{RawProfile: data}, {RawProfile: data[:100]}},
	}}}))
	require.Equal(t, connect.CodeInvalidArgument, connect.CodeOf(err))
	require.Contains(t, err.Error(), "series 0 sample 1")

	types, err := s.querier.ProfileTypes(context.Background(), connect.NewRequest(&querierv1.ProfileTypesRequest{Start: 1, End: farFuture}))
	require.NoError(t, err)
	require.Empty(t, types.Msg.ProfileTypes, "nothing was stored")
}

func TestZeroSamplesDropped(t *testing.T) {
	s := newServer(t, t.TempDir())
	fHot := &profile.Function{ID: 1, Name: "main.hot"}
	fCold := &profile.Function{ID: 2, Name: "main.cold"}
	lHot := &profile.Location{ID: 1, Line: []profile.Line{{Function: fHot}}}
	lCold := &profile.Location{ID: 2, Line: []profile.Line{{Function: fCold}}}
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "cpu", Unit: "nanoseconds"}},
		PeriodType: &profile.ValueType{Type: "cpu", Unit: "nanoseconds"},
		TimeNanos:  time.Now().UnixNano(),
		Sample: []*profile.Sample{
			{Location: []*profile.Location{lHot}, Value: []int64{7}},
			{Location: []*profile.Location{lCold}, Value: []int64{0}},
		},
		Location: []*profile.Location{lHot, lCold},
		Function: []*profile.Function{fHot, fCold},
	}
	var buf strings.Builder
	require.NoError(t, p.Write(&buf))
	status, text := s.ingest(ingestParams("zero"), "", []byte(buf.String()))
	require.Equal(t, 200, status, text)
	got := s.flame(cpuType, "{}", 0)
	require.Equal(t, int64(7), got.total)
	require.False(t, got.names["main.cold"])
}

// TestIngestNameServiceLabelWins: name=app{service_name=shop} files the
// profile under service_name="shop" only; a series never holds a label twice.
func TestIngestNameServiceLabelWins(t *testing.T) {
	s := newServer(t, t.TempDir())
	body := fixtures.Read(t, "pyroscope/pushed-profiles/labeled.cpu.redated.pb.gz")
	p := ingestParams("app{service_name=shop}")
	p.Set("from", "0")
	status, text := s.ingest(p, "", body)
	require.Equal(t, 200, status, text)
	require.Equal(t, int64(3_770_000_000), s.flame(cpuType, `{service_name="shop"}`, 0).total, "the profile is shop's")
	require.Zero(t, s.flame(cpuType, `{service_name="app"}`, 0).total, "and not app's")
}

type sdkLogger struct{ t *testing.T }

func (l sdkLogger) Infof(f string, a ...any)  { l.t.Logf("sdk: "+f, a...) }
func (l sdkLogger) Debugf(f string, a ...any) {}
func (l sdkLogger) Errorf(f string, a ...any) { l.t.Errorf("sdk: %s", fmt.Sprintf(f, a...)) }

// TestPyroscopeGoSDKUpload sends profiles with pyroscope-go's own uploader
// (a multipart form with a profile and a sample_type_config).
func TestPyroscopeGoSDKUpload(t *testing.T) {
	s := newServer(t, t.TempDir())
	r, err := remote.NewRemote(remote.Config{Address: s.srv.URL, Threads: 1, Logger: sdkLogger{t}, Timeout: 10 * time.Second})
	require.NoError(t, err)
	r.Start()
	defer r.Stop()
	data := cpuData(t)
	heap := fixtures.Profile(t, "heap-1.pb.gz")
	now := time.Now()
	r.Upload(&upstream.UploadJob{
		Name: "sdkapp{otel.scope.name=go}", StartTime: now.Add(-10 * time.Second), EndTime: now,
		SpyName: "gospy", SampleRate: 100, Units: "samples", AggregationType: "sum",
		Format: upstream.FormatPprof, Profile: data,
	})
	// godeltaprof sends heap deltas already, and says so in sample_type_config.
	r.Upload(&upstream.UploadJob{
		Name: "sdkapp", StartTime: now.Add(-10 * time.Second), EndTime: now,
		SpyName: "gospy", SampleRate: 100, Format: upstream.FormatPprof, Profile: heap,
		SampleTypeConfig: map[string]*upstream.SampleType{
			"alloc_objects": {Units: "objects"}, "alloc_space": {Units: "bytes"},
			"inuse_space": {Units: "bytes", Aggregation: "average"}, "inuse_objects": {Units: "objects", Aggregation: "average"},
		},
	})
	r.Flush()
	// The oracle is google/pprof (go tool pprof -top).
	got := s.flame(cpuType, `{service_name="sdkapp", otel_scope_name="go", pyroscope_spy="gospy"}`, 0)
	require.Equal(t, oracle(t, "cpu").Total, got.total)
	allocTotal := heapOracle(t, "heap-1.pb.gz", "alloc_space").Total
	require.Equal(t, allocTotal, s.flame("memory:alloc_space:bytes:space:bytes", `{service_name="sdkapp"}`, 0).total,
		"deltas from the client are stored as sent")
}
