package plugin

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/grafana/grafana-plugin-sdk-go/backend"
	"github.com/grafana/grafana-plugin-sdk-go/data"
	"github.com/grafana/grafana-plugin-sdk-go/live"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/pkg/plugin/plugintest"
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

// liveStream runs RunStream on path in the background until the test ends;
// next waits for its next run.
type liveStream struct {
	packets packetSender
	runs    chan streamRun
	done    chan error
	cancel  context.CancelFunc
}

func startStream(t *testing.T, d *Datasource, path string) *liveStream {
	t.Helper()
	s := &liveStream{packets: make(packetSender, 4096), runs: make(chan streamRun, 64), done: make(chan error, 1)}
	d.streamTicked = func(_ string, sent bool, err error) { s.runs <- streamRun{sent, err} }
	ctx, cancel := context.WithCancel(context.Background())
	s.cancel = cancel
	go func() {
		s.done <- d.RunStream(ctx, &backend.RunStreamRequest{Path: path}, backend.NewStreamSender(s.packets))
	}()
	t.Cleanup(cancel)
	return s
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

// liveTotals reads the flamegraph root total and the series sum of frames.
func liveTotals(t *testing.T, frames data.Frames) (root int64, series float64) {
	t.Helper()
	fg := frameOf(frames, data.VisTypeFlameGraph)
	require.NotNil(t, fg, "a flamegraph frame among %d frames", len(frames))
	series, n, _ := seriesSum(t, frames)
	require.Positive(t, n, "series frames")
	return flameRows(t, fg)[0].Value, series
}

// cpuTotal is the CPU time a gzipped pprof holds.
func cpuTotal(t *testing.T, b []byte) int64 {
	t.Helper()
	p := plugintest.Parse(t, b)
	total, _ := plugintest.Totals(p, plugintest.SampleIndex(t, p, "cpu"))
	return total
}

// liveQuery is a live "both" query of service "live", re-run every second.
const liveQuery = `{"profileTypeId":"` + cpuType + `","labelSelector":"{service_name=\"live\"}","live":true,"liveInterval":"1s","liveWindow":"10m"}`

func TestLiveQueryStreamsNewProfiles(t *testing.T) {
	url := plugintest.Store(t)
	first := plugintest.CPUProfile(t, 100*time.Millisecond)
	plugintest.Ingest(t, url, `live{env="test"}`, first)
	firstTotal := cpuTotal(t, first)
	require.Positive(t, firstTotal)
	d := newDS(t, url)

	// QueryData answers over the live window and names the channel.
	frames := ok(t, run(t, d, q("A", "", liveQuery)), "A")
	root, series := liveTotals(t, frames)
	require.Equal(t, firstTotal, root)
	require.Equal(t, float64(firstTotal), series)
	channel := frames[0].Meta.Channel
	for _, f := range frames {
		require.Equal(t, channel, f.Meta.Channel, "every frame of the query names the same channel")
	}
	ch, err := live.ParseChannel(channel)
	require.NoError(t, err, "meta.channel %q is a valid Grafana Live channel", channel)
	assert.Equal(t, live.ScopeDatasource, ch.Scope)
	assert.Equal(t, "emberscope", ch.Namespace, "the datasource uid")
	assert.True(t, strings.HasPrefix(ch.Path, "live/"), ch.Path)

	sub, err := d.SubscribeStream(context.Background(), &backend.SubscribeStreamRequest{Path: ch.Path})
	require.NoError(t, err)
	require.Equal(t, backend.SubscribeStreamStatusOK, sub.Status)

	s := startStream(t, d, ch.Path)
	// The first run sends the current data.
	require.True(t, s.next(t).sent, "the first run sends")
	sent := s.packets.drain(t)
	root, series = liveTotals(t, sent)
	assert.Equal(t, firstTotal, root)
	assert.Equal(t, float64(firstTotal), series)
	for _, f := range sent {
		assert.Equal(t, "A", f.RefID)
	}

	// Nothing new arrived: the next run sends nothing.
	require.False(t, s.next(t).sent, "an unchanged query is not sent again")
	require.Empty(t, s.packets.drain(t))

	// A second profile arrives: a run sends frames with the new total.
	second := plugintest.CPUProfile(t, 100*time.Millisecond)
	plugintest.Ingest(t, url, `live{env="test"}`, second)
	secondTotal := cpuTotal(t, second)
	require.Positive(t, secondTotal)
	for runs := 1; !s.next(t).sent; runs++ {
		require.Less(t, runs, 30, "no frames sent in 30 runs after a new profile arrived")
	}
	root, series = liveTotals(t, s.packets.drain(t))
	assert.Equal(t, firstTotal+secondTotal, root, "flamegraph root total includes the new profile")
	assert.Equal(t, float64(firstTotal+secondTotal), series, "series include the new profile")

	// The last subscriber leaves: RunStream returns.
	s.cancel()
	require.NoError(t, <-s.done)
}

func TestLiveWindowLeavesOutOlderProfiles(t *testing.T) {
	url := plugintest.Store(t)
	p := plugintest.Parse(t, plugintest.CPUProfile(t, 50*time.Millisecond))
	p.TimeNanos = time.Now().Add(-30 * time.Minute).UnixNano()
	var buf bytes.Buffer
	require.NoError(t, p.Write(&buf))
	plugintest.Ingest(t, url, "old", buf.Bytes())
	total, _ := plugintest.Totals(p, plugintest.SampleIndex(t, p, "cpu"))
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
	key := strings.TrimPrefix(ch.Path, "live/")
	require.Len(t, key, streamKeyLen)

	for _, path := range []string{
		"",
		"live",
		"live/",
		"stream/" + key,
		"live/" + key[:10],
		"live/" + key + "x",
		"live/" + key[:21] + ".",
		"live/" + strings.Repeat("A", streamKeyLen), // well formed, never registered
		"live/" + key + "/extra",
	} {
		t.Run(path, func(t *testing.T) {
			resp, err := d.SubscribeStream(context.Background(), &backend.SubscribeStreamRequest{Path: path})
			require.NoError(t, err)
			assert.Equal(t, backend.SubscribeStreamStatusNotFound, resp.Status)
			err = d.RunStream(context.Background(), &backend.RunStreamRequest{Path: path}, backend.NewStreamSender(make(packetSender, 1)))
			require.Error(t, err, "RunStream refuses it too")
		})
	}
	for path, want := range map[string]string{
		"stream/" + key:          `channel path "stream/` + key + `" does not start with "live/"`,
		"live/" + key[:10]:       `the key must be 22 characters, not 10`,
		"live/" + key[:21] + ".": `the key has characters outside base64url`,
	} {
		_, err := streamKey(path)
		require.ErrorContains(t, err, want)
	}

	pub, err := d.PublishStream(context.Background(), &backend.PublishStreamRequest{Path: ch.Path})
	require.NoError(t, err)
	assert.Equal(t, backend.PublishStreamStatusPermissionDenied, pub.Status, "only the plugin writes to its channels")
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
}
