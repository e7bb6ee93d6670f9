// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package dataframes

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/grafana/grafana-plugin-sdk-go/data"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/pkg/profile/model"
)

var t0 = time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)

func noveltyFixture() ([]NoveltySeries, []NovelPoint) {
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	route := model.Labels{{Name: "route", Value: "/a"}}
	series := []NoveltySeries{
		{Labels: route, Selector: `{service_name="api", route="/a"}`, Points: []NoveltyPoint{
			{From: at(0), To: at(0).Add(time.Millisecond), Score: 0},
			{From: at(15), To: at(15).Add(time.Millisecond), Score: 0.02, MatchFrom: at(0), MatchTo: at(0).Add(time.Millisecond)},
			{From: at(30), To: at(30).Add(time.Millisecond), Score: 0.75, MatchFrom: at(15), MatchTo: at(15).Add(time.Millisecond)},
		}},
		{Selector: `{service_name="api"}`, Points: []NoveltyPoint{{From: at(0), To: at(60), Score: 0.1}}},
	}
	novel := []NovelPoint{{
		NoveltyPoint: series[0].Points[2],
		Labels:       model.Labels{{Name: "route", Value: "/a,b"}, {Name: "env", Value: "prod"}},
		Threshold:    0.1,
		Changes:      []NoveltyChange{{Name: "pkg.batchCompress", From: 0, To: 0.5}, {Name: "pkg.render", From: 0.4, To: 0.1}},
	}, {
		NoveltyPoint: NoveltyPoint{From: at(-60), To: at(-1), Score: 0.5},
		Threshold:    0.2,
	}}
	return series, novel
}

func TestNoveltyGolden(t *testing.T) {
	series, novel := noveltyFixture()
	fs := NoveltyScores(series, DiffLink{DatasourceUID: "emberscope", DatasourceName: "Emberscope", ProfileTypeID: "process_cpu:cpu:nanoseconds:cpu:nanoseconds"})
	checkGolden(t, "novelty", append(fs, NoveltyAnnotations(novel))...)
}

func TestNoveltyScoresOneFramePerSeries(t *testing.T) {
	series, _ := noveltyFixture()
	fs := NoveltyScores(series, DiffLink{DatasourceUID: "emberscope", ProfileTypeID: "x:y:z:a:b"})
	require.Len(t, fs, 2)
	f := fs[0]
	require.Equal(t, data.FrameTypeTimeSeriesMulti, f.Meta.Type)
	score := f.Fields[1]
	require.Equal(t, "score", score.Name)
	require.Equal(t, 0.75, score.At(2))
	require.Equal(t, data.Labels{"route": "/a"}, score.Labels)
	require.Equal(t, `novelty {route="/a"}`, score.Config.DisplayNameFromDS)
	require.Equal(t, 1.0, float64(*score.Config.Max))
	// The link fields: the point's and its match's ranges in unix ms.
	row := func(name string, i int) any { fl, _ := f.FieldByName(name); return fl.At(i) }
	require.Equal(t, "1795946430000", row("profileFrom", 2))
	require.Equal(t, "1795946430001", row("profileTo", 2))
	require.Equal(t, "1795946415000", row("matchFrom", 2))
	require.Equal(t, "", row("matchFrom", 0), "no match for the first point")
	link := score.Config.Links[0]
	q := link.Internal.Query.(map[string]any)
	require.Equal(t, "diff", q["queryType"])
	require.Equal(t, `{service_name="api", route="/a"}`, q["labelSelector"])
	require.Equal(t, "${__data.fields.matchFrom}", q["baseline"].(map[string]any)["from"])
	require.Equal(t, "${__data.fields.profileTo}", q["comparison"].(map[string]any)["to"])
	require.Nil(t, fs[1].Fields[1].Labels)
	require.Equal(t, "novelty", fs[1].Fields[1].Config.DisplayNameFromDS)

	require.Empty(t, NoveltyScores(series, DiffLink{})[0].Fields[1].Config.Links, "no datasource, no link")
}

func TestNoveltyAnnotationsFrame(t *testing.T) {
	_, novel := noveltyFixture()
	f := NoveltyAnnotations(novel)
	require.Equal(t, data.DataTopicAnnotations, f.Meta.DataTopic)
	require.Equal(t, 2, f.Rows())
	field := func(name string) *data.Field {
		fl, i := f.FieldByName(name)
		require.GreaterOrEqual(t, i, 0, "field %s", name)
		return fl
	}
	require.Equal(t, t0.Add(-time.Minute), field("time").At(0), "time order")
	require.Equal(t, `Novel profile {env="prod", route="/a,b"}`, field("title").At(1))
	require.Equal(t, "Novel profile", field("title").At(0))
	require.Equal(t, "Novelty score 0.75 (threshold 0.10). Moved most: pkg.batchCompress (0.0% → 50.0% of self), pkg.render (40.0% → 10.0% of self). Most similar earlier profile: 2026-11-29T10:00:15Z.", field("text").At(1))
	require.Equal(t, "Novelty score 0.50 (threshold 0.20).", field("text").At(0))
	require.Equal(t, "novelty,env=prod,route=/a b", field("tags").At(1))
	require.Equal(t, "novelty", field("tags").At(0))

	b, err := json.Marshal(f)
	require.NoError(t, err)
	require.Contains(t, string(b), `"dataTopic":"annotations"`)
}

func TestNoveltyAnnotationsEmpty(t *testing.T) {
	f := NoveltyAnnotations(nil)
	require.Zero(t, f.Rows())
	require.Len(t, f.Fields, 6, "the shape is there even without novel points")
}
