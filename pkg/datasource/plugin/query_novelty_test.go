// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

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

	noveltydata "github.com/emberscope/emberscope/internal/fixtures/noveltydata"
	"github.com/emberscope/emberscope/pkg/datasource/plugin/plugintest"
	"github.com/emberscope/emberscope/pkg/datasource/source"
	"github.com/emberscope/emberscope/pkg/profile/flame"
	"github.com/emberscope/emberscope/pkg/profile/novelty"
)

// noveltyFixture is a store holding, for service "novelty", one real CPU
// profile of the demo service's handlers per minute over 8 minutes from
// base on two pods: pod "a" serves the usual trip mix throughout; pod "b"
// serves it for 7 minutes, then runs the logindex batch job in the 8th
// (minute 7). Every profile is a different recording.
type noveltyFixture struct {
	url  string
	base time.Time
}

var (
	noveltyOnce   sync.Once
	noveltyShared noveltyFixture
)

const noveltyProfiles = 8

func novelFixture(t *testing.T) noveltyFixture {
	t.Helper()
	noveltyOnce.Do(func() {
		url := plugintest.Store(&keepAlive{T: t})
		// Minutes aligned, 20 minutes ago: inside the store's one-hour window.
		base := time.Now().Truncate(time.Minute).Add(-20 * time.Minute)
		stable := noveltydata.Stable(t, "rideshare", 2*noveltyProfiles-1)
		for i := range noveltyProfiles {
			at := base.Add(time.Duration(i)*time.Minute + 30*time.Second)
			plugintest.Ingest(t, url, `novelty{pod=a}`, noveltydata.At(t, stable[i], at))
			b := noveltydata.Changed(t, "logindex-in-rideshare")
			if i < noveltyProfiles-1 {
				b = stable[noveltyProfiles+i]
			}
			plugintest.Ingest(t, url, `novelty{pod=b}`, noveltydata.At(t, b, at.Add(time.Second)))
		}
		noveltyShared = noveltyFixture{url: url, base: base}
	})
	if noveltyShared.url == "" {
		t.Fatal("novelty fixture failed in an earlier test")
	}
	return noveltyShared
}

// noveltyQuery asks for 10 one-minute steps from base.
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

func field(t *testing.T, f *data.Frame, name string, row int) any {
	t.Helper()
	fl, i := f.FieldByName(name)
	require.GreaterOrEqual(t, i, 0, "field %s", name)
	return fl.At(row)
}

const podB = `{"profileTypeId":"` + cpuType + `","labelSelector":"{service_name=\"novelty\", pod=\"b\"}"}`

func TestNoveltyScoresEachProfileOnTheStore(t *testing.T) {
	fx := novelFixture(t)
	d := newDS(t, fx.url)
	scores, ann := noveltyResult(t, ok(t, run(t, d, noveltyQuery("N", fx.base, podB)), "N"))
	require.Len(t, scores, 1)
	require.Empty(t, scores[0].Meta.Notices, "the store keeps vectors: no window notice")
	s := scores[0]
	require.Equal(t, noveltyProfiles, s.Rows(), "one score per profile")
	switchAt := fx.base.Add(7*time.Minute + 31*time.Second).UTC()
	require.Equal(t, []time.Time{switchAt}, annotationTimes(t, ann), "exactly the batch profile is novel")
	require.Equal(t, switchAt, field(t, s, "time", noveltyProfiles-1), "a point is at its profile's own time")
	// One profile a minute: the default 1 false alarm a day is a chance of
	// 1 in 1,440 a profile.
	threshold := novelty.SurpriseThreshold(1, time.Minute)
	for i := 0; i < s.Rows(); i++ {
		score := field(t, s, "score", i).(float64)
		if i == noveltyProfiles-1 {
			require.Greater(t, score, 3*threshold, "the other program scores far above the threshold")
		} else {
			require.Less(t, score, threshold, "profile %d of the usual mix", i)
		}
	}
	require.Empty(t, s.Fields[1].Config.Unit, "a surprise has no unit")
	text := field(t, ann, "text", 0).(string)
	// The batch job's own functions (new to the series, tested on their
	// inclusive shares) or its package lead the moves.
	require.Regexp(t, `Moved most: (compress/flate|main\.\S+ \(with callees\) 0(\.0)? % → 9\d %)`, text, "the text names the batch job's functions: %s", text)
	require.Contains(t, text, "main.(*logindex).batch", "the text names the batch job's functions: %s", text)
	require.Regexp(t, `^Novelty: a move this series' usual variation makes about once in \S+( million| billion)? profiles \(surprise \d+\.\d; threshold 3\.2: 1 false alarm a day at a push every 1m0s\)\. Moved most: .+? \d+(\.\d)? % → \d+(\.\d)? % \(\+\d+(\.\d)? σ\),`, text, "chance in words, shares in percent and moves in σ")
	// The point links to the diff against its most similar earlier profile.
	match := field(t, s, "matchFrom", noveltyProfiles-1).(string)
	require.NotEmpty(t, match)
	require.Empty(t, field(t, s, "matchFrom", 0), "the first profile has no match")
	require.Len(t, s.Fields[1].Config.Links, 1)
	require.Equal(t, "Diff against the most similar earlier profile", s.Fields[1].Config.Links[0].Title)
}

// TestNoveltyDiffLinkOpensTheDiff follows the novel point's data link as
// Grafana would: the ${__data.fields.*} variables replaced from its row,
// the query run on the same datasource.
func TestNoveltyDiffLinkOpensTheDiff(t *testing.T) {
	fx := novelFixture(t)
	d := newDS(t, fx.url)
	scores, _ := noveltyResult(t, ok(t, run(t, d, noveltyQuery("N", fx.base, podB)), "N"))
	s := scores[0]
	row := noveltyProfiles - 1
	b, err := json.Marshal(s.Fields[1].Config.Links[0].Internal.Query)
	require.NoError(t, err)
	js := string(b)
	for _, f := range []string{"matchFrom", "matchTo", "profileFrom", "profileTo"} {
		js = strings.ReplaceAll(js, "${__data.fields."+f+"}", field(t, s, f, row).(string))
	}
	q := backend.DataQuery{RefID: "D", QueryType: QueryTypeDiff, JSON: json.RawMessage(js), TimeRange: backend.TimeRange{From: fx.base, To: fx.base.Add(10 * time.Minute)}}
	fs := ok(t, run(t, d, q), "D")
	require.Len(t, fs, 1)
	left, right := field(t, fs[0], "value", 0).(int64), field(t, fs[0], "valueRight", 0).(int64)
	require.Positive(t, left, "the baseline is the matched profile: %s", js)
	require.Positive(t, right, "the comparison is the novel profile")
	names := map[string]bool{}
	for _, r := range flameRows(t, fs[0]) {
		names[r.Label] = true
	}
	require.True(t, names["compress/flate.(*compressor).deflate"], "the batch job's functions are in the diff")
}

func TestNoveltyPerSeriesOfTheGroupBy(t *testing.T) {
	fx := novelFixture(t)
	d := newDS(t, fx.url)
	resp := run(t, d, noveltyQuery("G", fx.base, `{"profileTypeId":"`+cpuType+`","labelSelector":"{service_name=\"novelty\"}","groupBy":["pod"]}`))
	scores, ann := noveltyResult(t, ok(t, resp, "G"))
	require.Len(t, scores, 2, "one score series per pod")
	require.Equal(t, data.Labels{"pod": "a"}, scores[0].Fields[1].Labels)
	require.Equal(t, data.Labels{"pod": "b"}, scores[1].Fields[1].Labels)
	require.Equal(t, []time.Time{fx.base.Add(7*time.Minute + 31*time.Second).UTC()}, annotationTimes(t, ann), "only pod b's switch is novel")
	require.Equal(t, `Novel profile {pod="b"}`, field(t, ann, "title", 0))
	require.Equal(t, "novelty,pod=b", field(t, ann, "tags", 0))
}

// windowSource hides the store's vectors, as a Pyroscope server has none,
// and watches the merges a novelty query asks: how many run at once, which
// node budget, and it fails the one whose window starts at failAt.
type windowSource struct {
	source.Source
	failAt             time.Time
	inFlight, maxSeen  atomic.Int32
	calls, bigRequests atomic.Int32
}

func (p *windowSource) MergeStacks(ctx context.Context, r source.StacksRequest) (*flame.Tree, error) {
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

func TestNoveltyPerWindowWithoutVectors(t *testing.T) {
	fx := novelFixture(t)
	d := newDS(t, fx.url)
	probe := &windowSource{Source: d.src}
	d.src = probe
	scores, ann := noveltyResult(t, ok(t, run(t, d, noveltyQuery("W", fx.base, podB)), "W"))
	require.Len(t, scores, 1)
	require.Equal(t, noveltyProfiles, scores[0].Rows(), "one score per window with profiles")
	require.Contains(t, scores[0].Meta.Notices[0].Text, "keeps no per-profile vectors")
	switchAt := fx.base.Add(7 * time.Minute).UTC()
	require.Equal(t, []time.Time{switchAt}, annotationTimes(t, ann), "exactly the window of the batch profile is novel")
	require.Equal(t, switchAt.Add(time.Minute-time.Millisecond), field(t, ann, "timeEnd", 0))
	require.Equal(t, int32(10), probe.calls.Load())
	require.LessOrEqual(t, probe.maxSeen.Load(), int32(noveltyConcurrency), "at most %d windows at once", noveltyConcurrency)
	require.Zero(t, probe.bigRequests.Load(), "each window asks a small node budget")

	// A fine step over a long range is widened to a bounded number of windows.
	probe.calls.Store(0)
	wide := noveltyQuery("L", fx.base, podB)
	wide.TimeRange = backend.TimeRange{From: fx.base.Add(-24 * time.Hour), To: fx.base.Add(10 * time.Minute)}
	wide.Interval, wide.MaxDataPoints = time.Second, 0
	scores, _ = noveltyResult(t, ok(t, run(t, d, wide), "L"))
	require.Equal(t, int32(noveltyMaxWindows), probe.calls.Load())
	require.Contains(t, scores[0].Meta.Notices[0].Text, "Scoring 200 windows of 7m15s")

	probe.failAt = fx.base.Add(3 * time.Minute)
	r := run(t, d, noveltyQuery("B", fx.base, podB)).Responses["B"]
	require.Error(t, r.Error)
	require.Contains(t, r.Error.Error(), "novelty: window "+probe.failAt.UTC().Format(time.RFC3339))
	require.Contains(t, r.Error.Error(), "probe: this window fails")
}

func TestNoveltyClusteringFlagsTheSameSwitch(t *testing.T) {
	fx := novelFixture(t)
	d := newDS(t, fx.url)
	js := strings.Replace(podB, `{"profileTypeId"`, `{"novelty":{"cluster":true,"history":5},"profileTypeId"`, 1)
	_, ann := noveltyResult(t, ok(t, run(t, d, noveltyQuery("C", fx.base, js)), "C"))
	require.Equal(t, []time.Time{fx.base.Add(7*time.Minute + 31*time.Second).UTC()}, annotationTimes(t, ann))
}

func TestNoveltyBadInput(t *testing.T) {
	fx := novelFixture(t)
	d := newDS(t, fx.url)
	noRange := noveltyQuery("R", fx.base, podB)
	noRange.TimeRange = backend.TimeRange{}
	unknown := noveltyQuery("U", fx.base, `{"profileTypeId":"nope:cpu:nanoseconds:cpu:nanoseconds"}`)
	history := noveltyQuery("H", fx.base, `{"profileTypeId":"`+cpuType+`","novelty":{"history":-3}}`)
	by := noveltyQuery("B", fx.base, `{"profileTypeId":"`+cpuType+`","novelty":{"by":"line"}}`)
	good := noveltyQuery("G", fx.base, podB)

	resp := run(t, d, noRange, unknown, history, by, good)
	for ref, want := range map[string]string{
		"R": "the query has no time range",
		"U": `unknown profile type "nope:cpu:nanoseconds:cpu:nanoseconds"`,
		"H": "novelty: history must be 1..10000 profiles, not -3",
		"B": `novelty.by: novelty: features by "line": want function or stack`,
	} {
		r := resp.Responses[ref]
		require.Error(t, r.Error, ref)
		require.Contains(t, r.Error.Error(), want, ref)
		require.Equal(t, backend.StatusBadRequest, r.Status, ref)
	}
	ok(t, resp, "G") // the bad queries fail alone
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
	require.Contains(t, scores[0].Meta.Notices[0].Text, "only after 5 of history")
}

func TestNoveltyOfATransformedQueryIsPerWindow(t *testing.T) {
	fx := novelFixture(t)
	d := newDS(t, fx.url)
	js := `{"expr":"drop_frames(` + cpuType + `{service_name=\"novelty\", pod=\"b\"}, \"^runtime\\\\.\")"}`
	scores, ann := noveltyResult(t, ok(t, run(t, d, noveltyQuery("T", fx.base, js)), "T"))
	require.Len(t, scores, 1)
	require.Equal(t, "The query transforms its profiles (vectors are kept of whole profiles): each step window's merged profile is scored instead of each profile.", scores[0].Meta.Notices[0].Text)
	require.Equal(t, []time.Time{fx.base.Add(7 * time.Minute).UTC()}, annotationTimes(t, ann))
}
