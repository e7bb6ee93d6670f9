package plugin

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/grafana/grafana-plugin-sdk-go/backend"
	"github.com/grafana/grafana-plugin-sdk-go/data"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/pkg/flame"
	"github.com/emberscope/emberscope/pkg/novelty/noveltytest"
	"github.com/emberscope/emberscope/pkg/plugin/plugintest"
	"github.com/emberscope/emberscope/pkg/source"
)

// noveltyFixture is a store holding, for service "novelty", one real CPU
// profile per minute over 7 minutes from base on two pods: pod "a" runs the
// serve workload throughout; pod "b" runs it for 6 minutes, then switches to
// the batch workload in the 7th (window 6).
type noveltyFixture struct {
	url  string
	base time.Time
}

var (
	noveltyOnce   sync.Once
	noveltyShared noveltyFixture
)

const noveltyWindowsWithData = 7

func novelFixture(t *testing.T) noveltyFixture {
	t.Helper()
	noveltyOnce.Do(func() {
		url := plugintest.Store(&keepAlive{T: t})
		// Minutes aligned, 20 minutes ago: inside the store's one-hour window.
		base := time.Now().Truncate(time.Minute).Add(-20 * time.Minute)
		// Record every profile before ingesting any, so that the store's
		// background work does not land in the profiles. A second each keeps
		// the sampling noise between two serve profiles (cosine distance
		// mostly under 0.05) well under the novelty floor of 0.1.
		const d = time.Second
		serve := make([][]byte, noveltyWindowsWithData)
		for i := range serve {
			serve[i] = noveltytest.Record(t, noveltytest.Serve, d, time.Time{})
		}
		batch := noveltytest.Record(t, noveltytest.Batch, d, time.Time{})
		for i := range noveltyWindowsWithData {
			at := base.Add(time.Duration(i)*time.Minute + 30*time.Second)
			plugintest.Ingest(t, url, `novelty{pod=a}`, noveltytest.At(t, serve[i], at))
			b := serve[(i+1)%len(serve)] // not the very profile pod a has
			if i == noveltyWindowsWithData-1 {
				b = batch
			}
			plugintest.Ingest(t, url, `novelty{pod=b}`, noveltytest.At(t, b, at.Add(time.Second)))
		}
		noveltyShared = noveltyFixture{url: url, base: base}
	})
	if noveltyShared.url == "" {
		t.Fatal("novelty fixture failed in an earlier test")
	}
	return noveltyShared
}

// noveltyQuery asks for 10 one-minute windows from base.
func noveltyQuery(refID string, base time.Time, js string) backend.DataQuery {
	return backend.DataQuery{
		RefID: refID, QueryType: QueryTypeNovelty, JSON: json.RawMessage(js),
		TimeRange:     backend.TimeRange{From: base, To: base.Add(10 * time.Minute)},
		Interval:      time.Minute,
		MaxDataPoints: 10,
	}
}

// noveltyResult splits a novelty answer into score frames and annotations.
func noveltyResult(t *testing.T, fs data.Frames) (scores []*data.Frame, ann *data.Frame) {
	t.Helper()
	for _, f := range fs {
		if f.Meta != nil && f.Meta.DataTopic == data.DataTopicAnnotations {
			require.Nil(t, ann, "one annotations frame")
			ann = f
			continue
		}
		require.Equal(t, "score", f.Fields[1].Name)
		scores = append(scores, f)
	}
	require.NotNil(t, ann, "an annotations frame")
	return scores, ann
}

func annotationTimes(t *testing.T, ann *data.Frame) []time.Time {
	t.Helper()
	f, i := ann.FieldByName("time")
	require.GreaterOrEqual(t, i, 0)
	var out []time.Time
	for j := 0; j < f.Len(); j++ {
		out = append(out, f.At(j).(time.Time))
	}
	return out
}

func TestNoveltyFlagsTheWorkloadSwitch(t *testing.T) {
	fx := novelFixture(t)
	d := newDS(t, fx.url)
	resp := run(t, d, noveltyQuery("N", fx.base, `{"profileTypeId":"`+cpuType+`","labelSelector":"{service_name=\"novelty\", pod=\"b\"}"}`))
	scores, ann := noveltyResult(t, ok(t, resp, "N"))
	require.Len(t, scores, 1)
	require.Equal(t, "N", ann.RefID)
	require.Equal(t, noveltyWindowsWithData, scores[0].Rows(), "one score per window with profiles")
	switchAt := fx.base.Add(6 * time.Minute).UTC()
	require.Equal(t, []time.Time{switchAt}, annotationTimes(t, ann), "exactly the window of the batch profile is novel")

	end, _ := ann.FieldByName("timeEnd")
	require.Equal(t, switchAt.Add(time.Minute-time.Millisecond), end.At(0))
	text, _ := ann.FieldByName("text")
	require.Contains(t, text.At(0), "batch", "the text names the batch functions that grew: %s", text.At(0))
	for i := 0; i < scores[0].Rows(); i++ {
		s := scores[0].Fields[1].At(i).(float64)
		if scores[0].Fields[0].At(i).(time.Time).Equal(switchAt) {
			require.Greater(t, s, 0.5, "the switch scores high")
		} else {
			require.Less(t, s, 0.5, "window %d", i)
		}
	}
}

func TestNoveltyPerSeriesOfTheGroupBy(t *testing.T) {
	fx := novelFixture(t)
	d := newDS(t, fx.url)
	resp := run(t, d, noveltyQuery("G", fx.base, `{"profileTypeId":"`+cpuType+`","labelSelector":"{service_name=\"novelty\"}","groupBy":["pod"]}`))
	scores, ann := noveltyResult(t, ok(t, resp, "G"))
	require.Len(t, scores, 2, "one score series per pod")
	require.Equal(t, data.Labels{"pod": "a"}, scores[0].Fields[1].Labels)
	require.Equal(t, data.Labels{"pod": "b"}, scores[1].Fields[1].Labels)
	require.Equal(t, []time.Time{fx.base.Add(6 * time.Minute).UTC()}, annotationTimes(t, ann), "only pod b's switch is novel")
	title, _ := ann.FieldByName("title")
	require.Equal(t, `Novel profile {pod="b"}`, title.At(0))
	tags, _ := ann.FieldByName("tags")
	require.Equal(t, "novelty,pod=b", tags.At(0))
}

func TestNoveltyBadInput(t *testing.T) {
	fx := novelFixture(t)
	d := newDS(t, fx.url)
	js := `{"profileTypeId":"` + cpuType + `","labelSelector":"{service_name=\"novelty\"}"}`
	noRange := noveltyQuery("R", fx.base, js)
	noRange.TimeRange = backend.TimeRange{}
	tooMany := noveltyQuery("S", fx.base, js)
	tooMany.TimeRange = backend.TimeRange{From: fx.base.Add(-24 * time.Hour), To: fx.base}
	tooMany.Interval, tooMany.MaxDataPoints = time.Second, 0 // the step is the datasource's 15s minimum
	unknown := noveltyQuery("U", fx.base, `{"profileTypeId":"nope:cpu:nanoseconds:cpu:nanoseconds"}`)
	good := noveltyQuery("G", fx.base, js)

	resp := run(t, d, noRange, tooMany, unknown, good)
	for ref, want := range map[string]string{
		"R": "the query has no time range",
		"S": "splits the 24h0m0s range into 5760 windows; at most 1000",
		"U": `unknown profile type "nope:cpu:nanoseconds:cpu:nanoseconds"`,
	} {
		r := resp.Responses[ref]
		require.Error(t, r.Error, ref)
		require.Contains(t, r.Error.Error(), want, ref)
		require.Equal(t, backend.StatusBadRequest, r.Status, ref)
	}
	ok(t, resp, "G") // the bad queries fail alone
}

func TestNoveltyWindows(t *testing.T) {
	from := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	ws, err := noveltyWindows(source.TimeRange{From: from, To: from.Add(150 * time.Second)}, time.Minute)
	require.NoError(t, err)
	require.Equal(t, []window{
		{from, from.Add(time.Minute - time.Millisecond)},
		{from.Add(time.Minute), from.Add(2*time.Minute - time.Millisecond)},
		{from.Add(2 * time.Minute), from.Add(150 * time.Second)},
	}, ws, "windows tile the range without overlapping at millisecond precision")

	_, err = noveltyWindows(source.TimeRange{From: from, To: from.Add(time.Hour)}, 0)
	require.ErrorContains(t, err, "the step is 0s")
	ws, err = noveltyWindows(source.TimeRange{From: from, To: from.Add(1000 * time.Second)}, time.Second)
	require.NoError(t, err)
	require.Len(t, ws, 1000, "exactly the maximum is allowed")
	_, err = noveltyWindows(source.TimeRange{From: from, To: from.Add(1001 * time.Second)}, time.Second)
	require.ErrorContains(t, err, "1001 windows")
}

func TestNoveltyNoticesShortSeries(t *testing.T) {
	fx := novelFixture(t)
	d := newDS(t, fx.url)
	q := noveltyQuery("W", fx.base, `{"profileTypeId":"`+cpuType+`","labelSelector":"{service_name=\"novelty\", pod=\"a\"}"}`)
	q.TimeRange.To = fx.base.Add(3 * time.Minute)
	scores, ann := noveltyResult(t, ok(t, run(t, d, q), "W"))
	require.Zero(t, ann.Rows())
	require.Len(t, scores, 1)
	require.NotEmpty(t, scores[0].Meta.Notices)
	require.True(t, strings.Contains(scores[0].Meta.Notices[0].Text, "only after 5 windows"), scores[0].Meta.Notices[0].Text)
}

// probeSource watches the merges a novelty query asks of a real source: how
// many run at once, which node budget they ask, and it fails the one whose
// window starts at failAt.
type probeSource struct {
	source.Source
	failAt             time.Time
	inFlight, maxSeen  atomic.Int32
	calls, bigRequests atomic.Int32
}

func (p *probeSource) MergeStacks(ctx context.Context, r source.StacksRequest) (*flame.Tree, error) {
	n := p.inFlight.Add(1)
	defer p.inFlight.Add(-1)
	for {
		m := p.maxSeen.Load()
		if n <= m || p.maxSeen.CompareAndSwap(m, n) {
			break
		}
	}
	p.calls.Add(1)
	if r.MaxNodes > noveltyMaxNodes {
		p.bigRequests.Add(1)
	}
	if r.Range.From.Equal(p.failAt) {
		return nil, errors.New("probe: this window fails")
	}
	time.Sleep(5 * time.Millisecond) // let the merges overlap
	return p.Source.MergeStacks(ctx, r)
}

func TestNoveltyFetchesWindowsBoundedAndFailsWithTheWindow(t *testing.T) {
	fx := novelFixture(t)
	d := newDS(t, fx.url)
	probe := &probeSource{Source: d.src}
	d.src = probe
	js := `{"profileTypeId":"` + cpuType + `","labelSelector":"{service_name=\"novelty\"}","groupBy":["pod"]}`

	ok(t, run(t, d, noveltyQuery("A", fx.base, js)), "A")
	require.Equal(t, int32(20), probe.calls.Load(), "10 windows for each of the 2 pods")
	require.LessOrEqual(t, probe.maxSeen.Load(), int32(noveltyConcurrency), "at most %d windows at once", noveltyConcurrency)
	require.Greater(t, probe.maxSeen.Load(), int32(1), "windows are fetched in parallel")
	require.Zero(t, probe.bigRequests.Load(), "each window asks a small node budget")

	probe.failAt = fx.base.Add(3 * time.Minute)
	r := run(t, d, noveltyQuery("B", fx.base, js)).Responses["B"]
	require.Error(t, r.Error)
	require.Contains(t, r.Error.Error(), "novelty: window "+probe.failAt.UTC().Format(time.RFC3339))
	require.Contains(t, r.Error.Error(), "probe: this window fails")
}
