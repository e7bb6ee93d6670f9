package frames

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/grafana/grafana-plugin-sdk-go/data"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/pkg/model"
)

func TestNoveltyScoresOneFramePerSeries(t *testing.T) {
	t0 := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	fs := NoveltyScores([]NoveltySeries{
		{Labels: model.Labels{{Name: "route", Value: "/a"}}, Points: []NoveltyPoint{{t0, 0}, {t0.Add(time.Minute), 0.75}}},
		{Points: []NoveltyPoint{{t0, 0.1}}},
	})
	require.Len(t, fs, 2)
	f := fs[0]
	require.Equal(t, data.FrameTypeTimeSeriesMulti, f.Meta.Type)
	require.Len(t, f.Fields, 2)
	require.Equal(t, "time", f.Fields[0].Name)
	require.Equal(t, t0.Add(time.Minute), f.Fields[0].At(1))
	score := f.Fields[1]
	require.Equal(t, "score", score.Name)
	require.Equal(t, 0.75, score.At(1))
	require.Equal(t, data.Labels{"route": "/a"}, score.Labels)
	require.Equal(t, `novelty {route="/a"}`, score.Config.DisplayNameFromDS)
	require.Equal(t, 1.0, float64(*score.Config.Max))
	require.Nil(t, fs[1].Fields[1].Labels)
	require.Equal(t, "novelty", fs[1].Fields[1].Config.DisplayNameFromDS)
}

func TestNoveltyAnnotationsFrame(t *testing.T) {
	t0 := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	w := NovelWindow{
		From: t0.Add(time.Minute), To: t0.Add(2 * time.Minute),
		Labels: model.Labels{{Name: "route", Value: "/a,b"}, {Name: "env", Value: "prod"}},
		Score:  0.8123, Threshold: 0.1,
		Changes: []NoveltyChange{{Name: "pkg.batchCompress", From: 0, To: 0.5}, {Name: "pkg.checksum", From: 0.1, To: 0.25}},
	}
	early := NovelWindow{From: t0, To: t0.Add(time.Minute), Score: 0.5, Threshold: 0.2}
	f := NoveltyAnnotations([]NovelWindow{w, early})
	require.Equal(t, data.DataTopicAnnotations, f.Meta.DataTopic)
	require.Equal(t, 2, f.Rows())
	field := func(name string) *data.Field {
		fl, i := f.FieldByName(name)
		require.GreaterOrEqual(t, i, 0, "field %s", name)
		return fl
	}
	require.Equal(t, t0, field("time").At(0), "time order")
	require.Equal(t, t0.Add(time.Minute), field("time").At(1))
	require.Equal(t, t0.Add(2*time.Minute), field("timeEnd").At(1))
	require.Equal(t, `Novel profile {env="prod", route="/a,b"}`, field("title").At(1))
	require.Equal(t, "Novel profile", field("title").At(0))
	require.Equal(t, "Novelty score 0.81 (threshold 0.10). Grew most: pkg.batchCompress (0.0% → 50.0% of self), pkg.checksum (10.0% → 25.0% of self).", field("text").At(1))
	require.Equal(t, "Novelty score 0.50 (threshold 0.20).", field("text").At(0))
	require.Equal(t, "novelty,env=prod,route=/a b", field("tags").At(1))
	require.Equal(t, "novelty", field("tags").At(0))

	// The wire form carries the topic Grafana reads.
	b, err := json.Marshal(f)
	require.NoError(t, err)
	require.Contains(t, string(b), `"dataTopic":"annotations"`)
}

func TestNoveltyAnnotationsEmpty(t *testing.T) {
	f := NoveltyAnnotations(nil)
	require.Zero(t, f.Rows())
	require.Len(t, f.Fields, 6, "the shape is there even without novel windows")
}
