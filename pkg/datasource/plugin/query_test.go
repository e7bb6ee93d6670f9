// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/grafana/grafana-plugin-sdk-go/backend"
	"github.com/stretchr/testify/require"
)

const cpuType = "process_cpu:cpu:nanoseconds:cpu:nanoseconds"

func dataQuery(js string) backend.DataQuery {
	to := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	return backend.DataQuery{
		RefID:         "A",
		JSON:          json.RawMessage(js),
		TimeRange:     backend.TimeRange{From: to.Add(-time.Hour), To: to},
		MaxDataPoints: 100,
		Interval:      time.Second,
	}
}

func TestParseRequestStructured(t *testing.T) {
	r, err := parseRequest(dataQuery(`{"profileTypeId":"`+cpuType+`","labelSelector":"{service_name=\"api\"}","groupBy":["region"],"maxNodes":"512","limit":5}`), 15*time.Second)
	require.NoError(t, err)
	require.Equal(t, cpuType, r.Query.ProfileTypeID)
	require.Equal(t, `{service_name="api"}`, r.Query.Selector)
	require.Equal(t, []string{"region"}, r.Query.GroupBy)
	require.Equal(t, 512, r.MaxNodes)
	require.Equal(t, 5, r.Limit)
	// 1h / 100 points = 36s, above the 15s minimum step.
	require.Equal(t, 36*time.Second, r.Step)
}

func TestParseRequestDefaults(t *testing.T) {
	r, err := parseRequest(dataQuery(`{"expr":"reverse(`+cpuType+`{})"}`), time.Minute)
	require.NoError(t, err)
	require.Equal(t, DefaultMaxNodes, r.MaxNodes)
	require.Equal(t, DefaultLimit, r.Limit)
	require.Equal(t, time.Minute, r.Step)
	require.Len(t, r.Query.Ops, 1)
}

func TestParseRequestErrors(t *testing.T) {
	cases := map[string]struct {
		q    backend.DataQuery
		want string
	}{
		"bad json":        {dataQuery(`{"profileTypeId":`), "invalid query JSON: unexpected end of JSON input"},
		"wrong type":      {dataQuery(`{"groupBy":"region"}`), `invalid query JSON: field "groupBy" must be []string, not string`},
		"bad selector":    {dataQuery(`{"profileTypeId":"` + cpuType + `","labelSelector":"{service_name=}"}`), "labelSelector"},
		"no profile type": {dataQuery(`{"labelSelector":"{}"}`), "profile type"},
		"bad maxNodes":    {dataQuery(`{"profileTypeId":"` + cpuType + `","maxNodes":-3}`), "maxNodes: -3 is negative"},
		"huge maxNodes":   {dataQuery(`{"profileTypeId":"` + cpuType + `","maxNodes":99999999}`), "maxNodes: 99999999 is above the maximum of 1048576"},
		"bad limit":       {dataQuery(`{"profileTypeId":"` + cpuType + `","limit":"many"}`), `limit: "many" is not a whole number`},
		"missing range": {func() backend.DataQuery {
			q := dataQuery(`{"profileTypeId":"` + cpuType + `"}`)
			q.TimeRange = backend.TimeRange{}
			return q
		}(), "the query has no time range: both from and to are required"},
		"inverted range": {func() backend.DataQuery {
			q := dataQuery(`{"profileTypeId":"` + cpuType + `"}`)
			q.TimeRange.From, q.TimeRange.To = q.TimeRange.To, q.TimeRange.From
			return q
		}(), "empty time range: from 2026-11-29T10:00:00Z is not before to 2026-11-29T09:00:00Z"},
		"bad comparison": {dataQuery(`{"profileTypeId":"` + cpuType + `","comparison":{"labelSelector":"{}","from":5,"to":1}}`), "comparison: from 5 is not before to 1"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := parseRequest(c.q, 15*time.Second)
			require.ErrorContains(t, err, c.want)
			require.Equal(t, backend.StatusBadRequest, errorResponse(err).Status, "a mistake in the query is a 400")
		})
	}
}
