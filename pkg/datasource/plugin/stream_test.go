// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/grafana/grafana-plugin-sdk-go/backend"
	"github.com/grafana/grafana-plugin-sdk-go/data"
	"github.com/grafana/grafana-plugin-sdk-go/live"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/pkg/datasource/plugin/plugintest"
	"github.com/emberscope/emberscope/pkg/datasource/source"
	"github.com/emberscope/emberscope/pkg/profile/flame"
)

// packetSender is a StreamPacketSender that hands every packet to a channel,
// as Grafana's side of a stream would receive them.
type packetSender chan *backend.StreamPacket

func (p packetSender) Send(pk *backend.StreamPacket) error {
	p <- pk
	return nil
}

// drain decodes the packets sent so far into frames.
func (p packetSender) drain(t *testing.T) data.Frames {
	t.Helper()
	var out data.Frames
	for {
		select {
		case pk := <-p:
			f := &data.Frame{}
			require.NoError(t, json.Unmarshal(pk.Data, f), "a packet is a data frame")
			out = append(out, f)
		default:
			return out
		}
	}
}

// streamRun is one run of a live stream as RunStream reports it.
type streamRun struct {
	sent bool
	err  error
}

// liveStream is one RunStream running in the background until the test
// ends; next waits for its next run.
type liveStream struct {
	packets packetSender
	runs    chan streamRun
	done    chan error
	cancel  context.CancelFunc
}

// startStreams runs RunStream on every path, each with its own sender.
func startStreams(t *testing.T, d *Datasource, paths ...string) map[string]*liveStream {
	t.Helper()
	streams := make(map[string]*liveStream, len(paths))
	for _, p := range paths {
		streams[p] = &liveStream{packets: make(packetSender, 4096), runs: make(chan streamRun, 64), done: make(chan error, 1)}
	}
	d.streamTicked = func(path string, sent bool, err error) { streams[path].runs <- streamRun{sent, err} }
	for path, s := range streams {
		ctx, cancel := context.WithCancel(context.Background())
		s.cancel = cancel
		t.Cleanup(cancel)
		go func() {
			s.done <- d.RunStream(ctx, &backend.RunStreamRequest{Path: path}, backend.NewStreamSender(s.packets))
		}()
	}
	return streams
}

func (s *liveStream) next(t *testing.T) streamRun {
	t.Helper()
	select {
	case r := <-s.runs:
		require.NoError(t, r.err, "a run of the live query")
		return r
	case err := <-s.done:
		t.Fatalf("RunStream ended early: %v", err)
		return streamRun{}
	}
}

// rootTotal is the root value of the one flamegraph frame of frames.
func rootTotal(t *testing.T, frames data.Frames) int64 {
	t.Helper()
	fg := frameOf(frames, data.VisTypeFlameGraph)
	require.NotNil(t, fg, "a flamegraph frame among %d frames", len(frames))
	return flameRows(t, fg)[0].Value
}

// untilSent waits for a run of s that sends, at most 30 runs.
func untilSent(t *testing.T, s *liveStream) data.Frames {
	t.Helper()
	for runs := 1; !s.next(t).sent; runs++ {
		require.Less(t, runs, 30, "no frame sent in 30 runs after a new profile arrived")
	}
	return s.packets.drain(t)
}

// cpuTotal is the CPU time a recorded profile file holds, as google/pprof
// (the oracle) reports it.
func cpuTotal(t *testing.T, file string) int64 {
	t.Helper()
	return plugintest.Pprof(t, file, "cpu").Total
}

// liveQuery is a live "both" query of service "live", re-run every second.
const liveQuery = `{"profileTypeId":"` + cpuType + `","labelSelector":"{service_name=\"live\"}","live":true,"liveInterval":"1s","liveWindow":"10m"}`

func TestLiveQueryStreamsNewProfiles(t *testing.T) {
	url := plugintest.Store(t)
	first := plugintest.CPUProfile(t)
	plugintest.Ingest(t, url, `live{env=test}`, first)
	firstTotal := cpuTotal(t, plugintest.CPUFile)
	require.Positive(t, firstTotal)
	d := newDS(t, url)

	// QueryData answers over the live window and names a channel per frame.
	frames := ok(t, run(t, d, q("A", "", liveQuery)), "A")
	require.Len(t, frames, 2, "a flamegraph and one series")
	require.Equal(t, firstTotal, rootTotal(t, frames))
	sum, _, _ := seriesSum(t, frames)
	require.Equal(t, float64(firstTotal), sum)
	var paths []string
	for _, f := range frames {
		ch, err := live.ParseChannel(f.Meta.Channel)
		require.NoError(t, err, "meta.channel %q is a valid Grafana Live channel", f.Meta.Channel)
		assert.Equal(t, live.ScopeDatasource, ch.Scope)
		assert.Equal(t, "emberscope", ch.Namespace, "the datasource uid")
		paths = append(paths, ch.Path)
		sub, err := d.SubscribeStream(context.Background(), &backend.SubscribeStreamRequest{Path: ch.Path})
		require.NoError(t, err)
		require.Equal(t, backend.SubscribeStreamStatusOK, sub.Status, ch.Path)
	}
	flamePath, seriesPath := paths[0], paths[1]
	require.NotEqual(t, flamePath, seriesPath, "one channel per frame")
	key, part, err := parseStreamPath(flamePath)
	require.NoError(t, err)
	assert.Equal(t, "frame-0", part)
	assert.True(t, strings.HasPrefix(seriesPath, "live/"+key+"/series-"), "both parts of one query: %s", seriesPath)

	streams := startStreams(t, d, flamePath, seriesPath)
	flame, series := streams[flamePath], streams[seriesPath]
	// The first run sends the current data, one frame per channel.
	require.True(t, flame.next(t).sent, "the first run sends")
	require.True(t, series.next(t).sent, "the first run sends")
	got := flame.packets.drain(t)
	require.Len(t, got, 1)
	assert.Equal(t, firstTotal, rootTotal(t, got))
	assert.Equal(t, "A", got[0].RefID)
	got = series.packets.drain(t)
	require.Len(t, got, 1)
	sum, n, _ := seriesSum(t, got)
	assert.Equal(t, 1, n)
	assert.Equal(t, float64(firstTotal), sum)

	// Nothing new arrived: the next runs send nothing.
	require.False(t, flame.next(t).sent, "an unchanged flamegraph is not sent again")
	require.False(t, series.next(t).sent, "an unchanged series is not sent again")
	require.Empty(t, flame.packets.drain(t))
	require.Empty(t, series.packets.drain(t))

	// A second profile arrives: both channels send the new total.
	second := plugintest.SecondCPUProfile(t)
	plugintest.Ingest(t, url, `live{env=test}`, second)
	secondTotal := cpuTotal(t, plugintest.SecondCPUFile)
	require.Positive(t, secondTotal)
	assert.Equal(t, firstTotal+secondTotal, rootTotal(t, untilSent(t, flame)), "flamegraph root total includes the new profile")
	sum, _, _ = seriesSum(t, untilSent(t, series))
	assert.Equal(t, float64(firstTotal+secondTotal), sum, "the series includes the new profile")

	// The last subscriber leaves: RunStream returns.
	for _, s := range streams {
		s.cancel()
		require.NoError(t, <-s.done)
	}
}

func TestLiveWindowLeavesOutOlderProfiles(t *testing.T) {
	url := plugintest.Store(t)
	p := plugintest.Parse(t, plugintest.CPUProfile(t))
	p.TimeNanos = time.Now().Add(-30 * time.Minute).UnixNano()
	var buf bytes.Buffer
	require.NoError(t, p.Write(&buf))
	plugintest.Ingest(t, url, "old", buf.Bytes())
	total := cpuTotal(t, plugintest.CPUFile)
	require.Positive(t, total)
	d := newDS(t, url)

	sel := `"profileTypeId":"` + cpuType + `","labelSelector":"{service_name=\"old\"}"`
	resp := run(t, d, q("STATIC", "profile", `{`+sel+`}`), q("LIVE", "profile", `{`+sel+`,"live":true,"liveWindow":"10m"}`),
		q("WIDE", "profile", `{`+sel+`,"live":true,"liveWindow":"45m"}`))
	assert.Equal(t, total, flameRows(t, ok(t, resp, "STATIC")[0])[0].Value, "the query's own range holds the profile")
	assert.Equal(t, int64(0), flameRows(t, ok(t, resp, "LIVE")[0])[0].Value, "30 minutes ago is outside a 10m live window")
	assert.Equal(t, total, flameRows(t, ok(t, resp, "WIDE")[0])[0].Value, "and inside a 45m one")
	assert.NotEqual(t, ok(t, resp, "LIVE")[0].Meta.Channel, ok(t, resp, "WIDE")[0].Meta.Channel, "different queries, different channels")
}

func TestLiveEmptyAnswerStillNamesTheChannel(t *testing.T) {
	fx := storeFixture(t)
	d := newDS(t, fx.url)
	frames := ok(t, run(t, d, q("E", "metrics", `{"profileTypeId":"`+cpuType+`","labelSelector":"{service_name=\"nobody\"}","live":true}`)), "E")
	require.Len(t, frames, 1, "an empty frame carries the channel")
	require.NotNil(t, frames[0].Meta)
	ch, err := live.ParseChannel(frames[0].Meta.Channel)
	require.NoError(t, err)
	sub, err := d.SubscribeStream(context.Background(), &backend.SubscribeStreamRequest{Path: ch.Path})
	require.NoError(t, err)
	assert.Equal(t, backend.SubscribeStreamStatusOK, sub.Status)
}

func TestLiveQueryErrors(t *testing.T) {
	cases := map[string]struct{ extra, want string }{
		"window too short":    {`"liveWindow":"30s"`, `liveWindow: 30s is below the minimum of 1m0s`},
		"window too long":     {`"liveWindow":"2d"`, `liveWindow: 48h0m0s is above the maximum of 24h0m0s`},
		"window not duration": {`"liveWindow":"a while"`, `liveWindow: "a while" is not a duration such as "30s", "15m" or "1h"`},
		"interval too short":  {`"liveInterval":"500ms"`, `liveInterval: 500ms is below the minimum of 1s`},
		"window as a number":  {`"liveWindow":15`, `invalid query JSON: field "liveWindow" must be string, not number`},
		"diff":                {`"comparison":{"labelSelector":"{}","from":1,"to":2}`, `live: a diff query cannot be live: its comparison range is fixed`},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := parseRequest(dataQuery(`{"profileTypeId":"`+cpuType+`","live":true,`+c.extra+`}`), 15*time.Second)
			require.Error(t, err)
			assert.Equal(t, c.want, err.Error())
		})
	}
	// Without live, the live fields are ignored.
	_, err := parseRequest(dataQuery(`{"profileTypeId":"`+cpuType+`","liveWindow":"30s"}`), 15*time.Second)
	require.NoError(t, err)
}

func TestLiveDefaults(t *testing.T) {
	r, err := parseRequest(dataQuery(`{"profileTypeId":"`+cpuType+`","live":true}`), 15*time.Second)
	require.NoError(t, err)
	require.NotNil(t, r.Live)
	assert.Equal(t, DefaultLiveWindow, r.Live.Window)
	assert.Equal(t, DefaultLiveInterval, r.Live.Interval)
	// 15m / 100 points = 9s, below the 15s minimum step.
	assert.Equal(t, 15*time.Second, r.Step)
	assert.Equal(t, DefaultLiveWindow, r.Range.To.Sub(r.Range.From), "15m is a whole number of 15s steps")
	assert.WithinDuration(t, time.Now(), r.Range.To, r.Step, "a live range ends now, whatever the query's own range")
}

func TestLiveRangeIsAlignedToSteps(t *testing.T) {
	now := time.Date(2026, 11, 29, 10, 17, 23, 456e6, time.UTC)
	r := liveRange(now, 15*time.Minute, 15*time.Second)
	assert.Equal(t, time.Date(2026, 11, 29, 10, 17, 30, 0, time.UTC), r.To)
	assert.Equal(t, time.Date(2026, 11, 29, 10, 2, 30, 0, time.UTC), r.From)
	// Later in the same step: the same range, so the same buckets.
	assert.Equal(t, r, liveRange(now.Add(5*time.Second), 15*time.Minute, 15*time.Second))
	// A window that is not a whole number of steps is widened, not cut.
	r = liveRange(now, 10*time.Minute, 7*time.Second)
	assert.GreaterOrEqual(t, r.To.Sub(r.From), 10*time.Minute)
	assert.Zero(t, r.From.UnixMilli()%7000)
	assert.Zero(t, r.To.UnixMilli()%7000)
}

func TestSubscribeStreamRefusesBadPaths(t *testing.T) {
	fx := storeFixture(t)
	d := newDS(t, fx.url)
	frames := ok(t, run(t, d, q("A", "profile", `{"profileTypeId":"`+cpuType+`","live":true}`)), "A")
	ch, err := live.ParseChannel(frames[0].Meta.Channel)
	require.NoError(t, err)
	key, part, err := parseStreamPath(ch.Path)
	require.NoError(t, err)
	require.Len(t, key, streamKeyLen)
	require.Equal(t, "frame-0", part)

	bad := map[string]string{
		"":                               `channel path "" does not start with "live/"`,
		"live":                           `does not start with "live/"`,
		"live/":                          `has no part: expected live/<key>/<part>`,
		"live/" + key:                    `has no part: expected live/<key>/<part>`,
		"stream/" + key + "/frame-0":     `does not start with "live/"`,
		"live/" + key[:10] + "/frame-0":  `the key must be 22 characters, not 10`,
		"live/" + key + "x/frame-0":      `the key must be 22 characters, not 23`,
		"live/" + key[:21] + "./frame-0": `the key has characters outside base64url`,
		"live/" + key + "/frame-x":       `part "frame-x" is neither frame-<n> nor series-<hash>`,
		"live/" + key + "/series-short":  `part "series-short" is neither frame-<n> nor series-<hash>`,
		"live/" + key + "/frame-0/extra": `part "frame-0/extra" is neither frame-<n> nor series-<hash>`,
		"live/" + strings.Repeat("A", 22) + "/frame-0": "", // well formed, never registered
	}
	for path, want := range bad {
		t.Run(path, func(t *testing.T) {
			if want != "" {
				_, _, err := parseStreamPath(path)
				require.ErrorContains(t, err, want)
			}
			resp, err := d.SubscribeStream(context.Background(), &backend.SubscribeStreamRequest{Path: path})
			require.NoError(t, err)
			assert.Equal(t, backend.SubscribeStreamStatusNotFound, resp.Status)
			err = d.RunStream(context.Background(), &backend.RunStreamRequest{Path: path}, backend.NewStreamSender(make(packetSender, 1)))
			require.Error(t, err, "RunStream refuses it too")
		})
	}

	pub, err := d.PublishStream(context.Background(), &backend.PublishStreamRequest{Path: ch.Path})
	require.NoError(t, err)
	assert.Equal(t, backend.PublishStreamStatusPermissionDenied, pub.Status, "only the plugin writes to its channels")
}

func TestFrameParts(t *testing.T) {
	t0 := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	series := func(route string) *data.Frame {
		return data.NewFrame(cpuType, data.NewField("time", nil, []time.Time{t0}), data.NewField(cpuType, data.Labels{"route": route}, []float64{1}))
	}
	flame := data.NewFrame("flamegraph", data.NewField("level", nil, []int64{0}))
	top := data.NewFrame("top", data.NewField("self", nil, []int64{0}))
	parts := frameParts(data.Frames{flame, series("/a"), series("/b"), top})
	require.Len(t, parts, 4)
	assert.Equal(t, "frame-0", parts[0])
	assert.Equal(t, "frame-1", parts[3], "numbered among the frames that are not series")
	for _, p := range parts {
		assert.Regexp(t, partPattern, p)
	}
	assert.NotEqual(t, parts[1], parts[2], "one part per series")
	// A series keeps its part when others come, go or move.
	again := frameParts(data.Frames{flame, series("/c"), series("/b")})
	assert.Equal(t, parts[2], again[2])
	assert.Same(t, flame, pickPart(data.Frames{flame, series("/b")}, "frame-0", "A"))
	gone := pickPart(data.Frames{flame}, parts[1], "A")
	assert.Equal(t, 0, gone.Rows(), "a series that left the window is sent empty")
	assert.Equal(t, "A", gone.RefID)
}

func TestDataFingerprint(t *testing.T) {
	t0 := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	series := func(start time.Time, values ...float64) *data.Frame {
		times := make([]time.Time, len(values))
		for i := range values {
			times[i] = start.Add(time.Duration(i) * 15 * time.Second)
		}
		return data.NewFrame("s", data.NewField("time", nil, times), data.NewField("v", data.Labels{"route": "/a"}, values))
	}
	base := dataFingerprint(data.Frames{series(t0, 0, 0, 5, 3)})
	assert.Equal(t, base, dataFingerprint(data.Frames{series(t0.Add(15*time.Second), 0, 5, 3, 0)}),
		"the window slid over empty buckets: same data")
	assert.NotEqual(t, base, dataFingerprint(data.Frames{series(t0, 0, 0, 5, 4)}), "a new total")
	assert.NotEqual(t, base, dataFingerprint(data.Frames{series(t0, 0, 0, 3, 5)}), "same total and last point, moved between buckets")
	assert.NotEqual(t, base, dataFingerprint(data.Frames{series(t0, 0, 0, 5, 3, 1)}), "a later point")
	assert.NotEqual(t, base, dataFingerprint(data.Frames{series(t0.Add(-15*time.Second), 0, 0, 5, 3)}), "a bucket left the window")

	flame := func(values ...int64) *data.Frame {
		return data.NewFrame("flamegraph", data.NewField("level", nil, make([]int64, len(values))), data.NewField("value", nil, values))
	}
	assert.Equal(t, dataFingerprint(data.Frames{flame(10, 4)}), dataFingerprint(data.Frames{flame(10, 4)}))
	assert.NotEqual(t, dataFingerprint(data.Frames{flame(10, 4)}), dataFingerprint(data.Frames{flame(10, 6)}), "any value of a flamegraph")
	labelled := func(names ...string) *data.Frame {
		return data.NewFrame("top", data.NewField("symbol", nil, names), data.NewField("virtual", nil, make([]bool, len(names))))
	}
	assert.NotEqual(t, dataFingerprint(data.Frames{labelled("a", "bc")}), dataFingerprint(data.Frames{labelled("ab", "c")}), "string values are delimited")
	enum := func(idx ...data.EnumItemIndex) *data.Frame {
		return data.NewFrame("flamegraph", data.NewField("label", nil, idx))
	}
	assert.NotEqual(t, dataFingerprint(data.Frames{enum(0, 1)}), dataFingerprint(data.Frames{enum(0, 2)}), "enum labels")
}

// countingSource counts the merges asked of a real source.
type countingSource struct {
	source.Source
	merges atomic.Int32
}

func (c *countingSource) MergeStacks(ctx context.Context, r source.StacksRequest) (*flame.Tree, error) {
	c.merges.Add(1)
	return c.Source.MergeStacks(ctx, r)
}

func TestLivePartsShareOneRun(t *testing.T) {
	fx := storeFixture(t)
	d := newDS(t, fx.url)
	counting := &countingSource{Source: d.src}
	d.src = counting
	frames := ok(t, run(t, d, q("A", "", `{"profileTypeId":"`+cpuType+`","labelSelector":"{service_name=\"shop\"}","live":true,"liveInterval":"1m"}`)), "A")
	require.Greater(t, len(frames), 1, "a flamegraph and series")
	require.Equal(t, int32(1), counting.merges.Load())
	key, _, err := parseStreamPath(strings.SplitN(frames[0].Meta.Channel, "/", 3)[2])
	require.NoError(t, err)
	spec, found := d.streams.lookup(key)
	require.True(t, found)

	// The streams of the flamegraph and of every series ask for the frames
	// at about the same time: one run answers them all.
	fn := d.queryFuncs()[spec.Kind]
	for range frames {
		got, interval, err := d.liveFrames(context.Background(), key, spec, fn)
		require.NoError(t, err)
		require.Len(t, got, len(frames))
		require.Equal(t, time.Minute, interval)
	}
	assert.Equal(t, int32(2), counting.merges.Load(), "QueryData's run, then one run for every part")
}

func TestUntilNextTick(t *testing.T) {
	at := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339Nano, s)
		require.NoError(t, err)
		return v
	}
	assert.Equal(t, 7*time.Second, untilNextTick(at("2026-11-29T10:00:03Z"), 10*time.Second))
	assert.Equal(t, 10*time.Second, untilNextTick(at("2026-11-29T10:00:10Z"), 10*time.Second), "on a tick: the next one")
	assert.Equal(t, 500*time.Millisecond, untilNextTick(at("2026-11-29T10:00:10.5Z"), time.Second))
}

func TestLiveWithoutAUsableUIDSaysSo(t *testing.T) {
	fx := storeFixture(t)
	d := newDS(t, fx.url)
	d.uid = "no good/uid"
	frames := ok(t, run(t, d, q("A", "profile", `{"profileTypeId":"`+cpuType+`","live":true}`)), "A")
	require.Len(t, frames, 1)
	assert.Empty(t, frames[0].Meta.Channel, "no channel that Grafana would refuse")
	require.Len(t, frames[0].Meta.Notices, 1)
	assert.Contains(t, frames[0].Meta.Notices[0].Text, `Live mode is off: the datasource uid "no good/uid" cannot name a Grafana Live channel`)

	// The uid of the request's plugin context wins over the instance's.
	resp, err := d.QueryData(context.Background(), &backend.QueryDataRequest{
		PluginContext: backend.PluginContext{DataSourceInstanceSettings: &backend.DataSourceInstanceSettings{UID: "from-grafana"}},
		Queries:       []backend.DataQuery{q("B", "profile", `{"profileTypeId":"`+cpuType+`","live":true}`)},
	})
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(ok(t, resp, "B")[0].Meta.Channel, "ds/from-grafana/live/"))
}
