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

	"github.com/emberscope/emberscope/pkg/pprofconv"
	"github.com/emberscope/emberscope/pkg/pprofconv/pproftest"
)

// stackValues returns sample type idx of p per full stack (root first, joined).
func stackValues(p *profile.Profile, idx int) map[string]int64 {
	out := make(map[string]int64)
	for _, s := range p.Sample {
		var frames []string
		for i := len(s.Location) - 1; i >= 0; i-- {
			fs := pprofconv.LocationFrames(nil, s.Location[i])
			for j := len(fs) - 1; j >= 0; j-- {
				frames = append(frames, fs[j])
			}
		}
		out[strings.Join(frames, ";")] += s.Value[idx]
	}
	return out
}

func leafFlat(stacks map[string]int64) (map[string]int64, int64) {
	flat := make(map[string]int64)
	var total int64
	for st, v := range stacks {
		if v == 0 {
			continue
		}
		leaf := st[strings.LastIndexByte(st, ';')+1:]
		flat[leaf] += v
		total += v
	}
	return flat, total
}

// TestHeapProfilesStoredAsSent checks that heap profiles are stored as
// sent, cumulative alloc_* included, as Pyroscope v2 stores them: no
// baseline, no server-side delta (recordings 20 and 21).
func TestHeapProfilesStoredAsSent(t *testing.T) {
	s := newServer(t, t.TempDir())
	first, err := pproftest.Heap(1)
	require.NoError(t, err)
	time.Sleep(2 * time.Millisecond) // distinct time_nanos
	second, err := pproftest.Heap(2)
	require.NoError(t, err)
	p1, p2 := parse(t, first), parse(t, second)
	require.NotEqual(t, p1.TimeNanos, p2.TimeNanos)

	status, text := s.ingest(ingestParams("heap"), "", first)
	require.Equal(t, 200, status, text)
	_, alloc1 := pproftest.Flat(p1, 1)
	require.NotZero(t, alloc1)
	require.Equal(t, alloc1, s.flame("memory:alloc_space:bytes:space:bytes", "{}", 0).total,
		"a single heap profile has its alloc_space as sent")

	status, text = s.ingest(ingestParams("heap"), "", second)
	require.Equal(t, 200, status, text)
	for idx, typeID := range []string{
		"memory:alloc_objects:count:space:bytes", "memory:alloc_space:bytes:space:bytes",
		"memory:inuse_objects:count:space:bytes", "memory:inuse_space:bytes:space:bytes",
	} {
		got := s.flame(typeID, `{service_name="heap"}`, 1<<20)
		f1, t1 := pproftest.Flat(p1, idx)
		f2, t2 := pproftest.Flat(p2, idx)
		for k, v := range f1 {
			f2[k] += v
		}
		require.Equal(t, t1+t2, got.total, typeID)
		require.Equal(t, withoutZero(f2), got.self, typeID)
	}
	// The allocating functions appear with their own names.
	got := s.flame("memory:alloc_space:bytes:space:bytes", "{}", 0)
	require.True(t, got.names["github.com/emberscope/emberscope/pkg/pprofconv/pproftest.allocLarge"])
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
	heap, err := pproftest.Heap(1)
	require.NoError(t, err)
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
	p := parse(t, data)
	_, total := pproftest.Flat(p, 1)
	got := s.flame(cpuType, `{service_name="sdkapp", otel_scope_name="go", pyroscope_spy="gospy"}`, 0)
	require.Equal(t, total, got.total)
	_, allocTotal := pproftest.Flat(parse(t, heap), 1)
	require.Equal(t, allocTotal, s.flame("memory:alloc_space:bytes:space:bytes", `{service_name="sdkapp"}`, 0).total,
		"deltas from the client are stored as sent")
}
