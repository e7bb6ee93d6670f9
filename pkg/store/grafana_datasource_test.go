// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package store_test

import (
	"context"
	"encoding/json"
	"math"
	"net/http"
	"testing"
	"time"

	"connectrpc.com/connect"
	querierv1 "github.com/grafana/pyroscope/api/gen/proto/go/querier/v1"
	"github.com/grafana/pyroscope/api/gen/proto/go/querier/v1/querierv1connect"
	typesv1 "github.com/grafana/pyroscope/api/gen/proto/go/types/v1"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/emberscope/emberscope/internal/fixtures"
	"github.com/emberscope/emberscope/internal/pyroscopereplay"
)

// grafanaPyroscopeQuery is the query model Grafana's built-in Pyroscope
// datasource saves (its dataquery kind: GrafanaPyroscopeDataQuery), the
// fields its backend reads.
type grafanaPyroscopeQuery struct {
	LabelSelector     string   `json:"labelSelector"`
	ProfileTypeID     string   `json:"profileTypeId"`
	SpanSelector      []string `json:"spanSelector,omitempty"`
	ProfileIDSelector []string `json:"profileIdSelector,omitempty"`
	GroupBy           []string `json:"groupBy"`
	MaxNodes          *int64   `json:"maxNodes,omitempty"`
	Limit             *int64   `json:"limit,omitempty"`
	IncludeExemplars  bool     `json:"includeExemplars"`
	IncludeHeatmap    bool     `json:"includeHeatmap"`
	HeatmapType       string   `json:"heatmapType"`
}

// grafanaPyroscopeCall sends one query the way Grafana's backend
// (pkg/tsdb/grafana-pyroscope-datasource: query.go, pyroscopeClient.go)
// sends it, with the connect client and its default protobuf codec:
//   - a profile query with spanSelector is SelectMergeSpanProfile
//     (labelSelector, spanSelector, range, maxNodes); otherwise
//     SelectMergeStacktraces (labelSelector, range, maxNodes, profileIdSelector);
//   - a metrics query is SelectSeries with step max(interval, minStep 15 s),
//     groupBy, limit, and exemplarType EXEMPLAR_TYPE_INDIVIDUAL when
//     includeExemplars is set (NONE otherwise);
//   - with includeHeatmap, SelectHeatmap with queryType INDIVIDUAL or SPAN
//     (heatmapType "span") and the exemplar type of that query type when
//     includeExemplars is set.
func grafanaPyroscopeCall(t *testing.T, c querierv1connect.QuerierServiceClient, queryType string, raw string, from, to time.Time, interval time.Duration) proto.Message {
	t.Helper()
	var qm grafanaPyroscopeQuery
	require.NoError(t, json.Unmarshal([]byte(raw), &qm))
	ctx := context.Background()
	start, end := from.UnixMilli(), to.UnixMilli()
	step := math.Max(interval.Seconds(), (15 * time.Second).Seconds())
	switch {
	case queryType == "profile" && len(qm.SpanSelector) > 0:
		//lint:ignore SA1019 Grafana's Pyroscope datasource sends this RPC; the store serves it as Pyroscope v2.2.1 does
		resp, err := c.SelectMergeSpanProfile(ctx, connect.NewRequest(&querierv1.SelectMergeSpanProfileRequest{
			ProfileTypeID: qm.ProfileTypeID, LabelSelector: qm.LabelSelector, SpanSelector: qm.SpanSelector,
			Start: start, End: end, MaxNodes: qm.MaxNodes,
		}))
		require.NoError(t, err)
		// Grafana reads only the flamegraph of the answer.
		return &querierv1.SelectMergeStacktracesResponse{Flamegraph: resp.Msg.Flamegraph}
	case queryType == "profile":
		resp, err := c.SelectMergeStacktraces(ctx, connect.NewRequest(&querierv1.SelectMergeStacktracesRequest{
			ProfileTypeID: qm.ProfileTypeID, LabelSelector: qm.LabelSelector, Start: start, End: end,
			MaxNodes: qm.MaxNodes, ProfileIdSelector: qm.ProfileIDSelector,
		}))
		require.NoError(t, err)
		return resp.Msg
	case queryType == "metrics" && qm.IncludeHeatmap:
		qt, et := querierv1.HeatmapQueryType_HEATMAP_QUERY_TYPE_INDIVIDUAL, typesv1.ExemplarType_EXEMPLAR_TYPE_INDIVIDUAL
		if qm.HeatmapType == "span" {
			qt, et = querierv1.HeatmapQueryType_HEATMAP_QUERY_TYPE_SPAN, typesv1.ExemplarType_EXEMPLAR_TYPE_SPAN
		}
		if !qm.IncludeExemplars {
			et = typesv1.ExemplarType_EXEMPLAR_TYPE_NONE
		}
		resp, err := c.SelectHeatmap(ctx, connect.NewRequest(&querierv1.SelectHeatmapRequest{
			ProfileTypeID: qm.ProfileTypeID, LabelSelector: qm.LabelSelector, Start: start, End: end,
			Step: step, GroupBy: qm.GroupBy, QueryType: qt, Limit: qm.Limit, ExemplarType: et,
		}))
		require.NoError(t, err)
		return resp.Msg
	case queryType == "metrics":
		et := typesv1.ExemplarType_EXEMPLAR_TYPE_NONE
		if qm.IncludeExemplars {
			et = typesv1.ExemplarType_EXEMPLAR_TYPE_INDIVIDUAL
		}
		resp, err := c.SelectSeries(ctx, connect.NewRequest(&querierv1.SelectSeriesRequest{
			ProfileTypeID: qm.ProfileTypeID, LabelSelector: qm.LabelSelector, Start: start, End: end,
			Step: step, GroupBy: qm.GroupBy, Limit: qm.Limit, ExemplarType: et,
		}))
		require.NoError(t, err)
		return resp.Msg
	}
	t.Fatalf("query type %q", queryType)
	return nil
}

// TestGrafanaPyroscopeDatasourceQueries sends the store the requests
// Grafana's built-in Pyroscope datasource sends for traces-to-profiles (a
// profile query with spanSelector), for exemplars (a metrics query with
// includeExemplars, grouped or not, and the span and individual heatmaps)
// and for an exemplar's link (a profile query with profileIdSelector of the
// id an exemplar gave), over its protobuf codec, and compares each answer
// with Pyroscope v2.2.1's answer to the same request (recordings 49, 54, 56,
// 57, 58, 60) as the replay suite does.
func TestGrafanaPyroscopeDatasourceQueries(t *testing.T) {
	exs, err := pyroscopereplay.Load(fixtures.Pyroscope())
	require.NoError(t, err)
	byNumber := map[int]*pyroscopereplay.Exchange{}
	for i := range exs {
		byNumber[exs[i].Number] = &exs[i]
	}
	srv := newReplayStore(t)
	for n := 41; n <= 43; n++ { // the span profiles, pushed as recorded
		status, body := send(t, srv, byNumber[n])
		require.Equal(t, http.StatusOK, status, "%s: %s", byNumber[n].Name, body)
	}
	params := loadSpanQueryParams(t)
	from, to := time.UnixMilli(params.Start), time.UnixMilli(params.End)
	c := querierv1connect.NewQuerierServiceClient(srv.Client(), srv.URL) // protobuf, as Grafana's client
	ids := profileIDs{}
	for _, tc := range []struct {
		recording int
		queryType string
		query     string
	}{
		{49, "profile", `{"labelSelector":"{service_name=\"rec-spans\"}","profileTypeId":"process_cpu:cpu:nanoseconds:cpu:nanoseconds","spanSelector":["122b3e7d77a267a7","1cc9f22ddacba4ff"],"groupBy":[],"maxNodes":16384}`},
		{54, "metrics", `{"labelSelector":"{env=\"demo\"}","profileTypeId":"process_cpu:cpu:nanoseconds:cpu:nanoseconds","groupBy":[],"includeExemplars":true}`},
		{56, "metrics", `{"labelSelector":"{env=\"demo\"}","profileTypeId":"process_cpu:cpu:nanoseconds:cpu:nanoseconds","groupBy":["service_name"],"includeExemplars":true}`},
		{57, "metrics", `{"labelSelector":"{service_name=\"rec-spans\"}","profileTypeId":"process_cpu:cpu:nanoseconds:cpu:nanoseconds","groupBy":[],"includeExemplars":true,"includeHeatmap":true,"heatmapType":"span"}`},
		{58, "metrics", `{"labelSelector":"{env=\"demo\"}","profileTypeId":"process_cpu:cpu:nanoseconds:cpu:nanoseconds","groupBy":[],"includeExemplars":true,"includeHeatmap":true,"heatmapType":"individual"}`},
		// The exemplar link: the id Pyroscope's 54 gave, rewritten to ours.
		{60, "profile", `{"labelSelector":"{env=\"demo\"}","profileTypeId":"process_cpu:cpu:nanoseconds:cpu:nanoseconds","profileIdSelector":["25b7a4ca-04d8-40d8-96a0-57b70fa5208a"],"groupBy":[],"maxNodes":16384}`},
	} {
		ex := byNumber[tc.recording]
		t.Run(ex.Name, func(t *testing.T) {
			query := string(ids.rewrite([]byte(tc.query)))
			// A 60 s interval: Grafana's step, as the recordings' step.
			msg := grafanaPyroscopeCall(t, c, tc.queryType, query, from, to, time.Minute)
			body, err := protojson.Marshal(msg)
			require.NoError(t, err)
			compareAnswer(t, ex, body, ids)
		})
	}
	require.Contains(t, ids, "25b7a4ca-04d8-40d8-96a0-57b70fa5208a", "the exemplars named the profile the link opens")
}
