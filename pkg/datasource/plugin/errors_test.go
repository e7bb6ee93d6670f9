// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/grafana/grafana-plugin-sdk-go/backend"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/pkg/profile/model"
)

// TestBadQueriesFailAlone sends good and bad queries in one request: each bad
// one gets its own clear error, the good one its frames.
func TestBadQueriesFailAlone(t *testing.T) {
	fx := storeFixture(t)
	d := newDS(t, fx.url)
	noRange := q("NORANGE", "profile", `{"profileTypeId":"`+cpuType+`"}`)
	noRange.TimeRange = backend.TimeRange{}
	resp := run(t, d,
		q("GOOD", "profile", `{"profileTypeId":"`+cpuType+`","labelSelector":"{service_name=\"shop\"}"}`),
		q("JSON", "profile", `{"profileTypeId": `),
		q("SEL", "profile", `{"profileTypeId":"`+cpuType+`","labelSelector":"{service_name=~}"}`),
		q("TYPE", "profile", `{"profileTypeId":"process_cpu:cpu:nanoseconds:cpu:seconds","labelSelector":"{}"}`),
		q("TYPEM", "metrics", `{"profileTypeId":"nope:a:b:c:d"}`),
		q("QT", "flames", `{"profileTypeId":"`+cpuType+`"}`),
		q("DIFF", "diff", `{"profileTypeId":"`+cpuType+`"}`),
		noRange,
	)
	ok(t, resp, "GOOD")
	want := map[string]string{
		"JSON":    "invalid query JSON: unexpected end of JSON input",
		"SEL":     "labelSelector",
		"TYPE":    `unknown profile type "process_cpu:cpu:nanoseconds:cpu:seconds": the profile server has ` + "memory:alloc_objects:count:space:bytes, memory:alloc_space:bytes:space:bytes, memory:inuse_objects:count:space:bytes, memory:inuse_space:bytes:space:bytes, " + cpuType,
		"TYPEM":   `unknown profile type "nope:a:b:c:d"`,
		"QT":      `unknown query type "flames": use one of profile, metrics, both, labels, topTable, diff, histogram, callSiteSeries, novelty, functionShare`,
		"DIFF":    "a diff query needs a comparison",
		"NORANGE": "the query has no time range: both from and to are required",
	}
	for ref, msg := range want {
		r := resp.Responses[ref]
		require.Error(t, r.Error, ref)
		require.Contains(t, r.Error.Error(), msg, ref)
		require.Equal(t, backend.StatusBadRequest, r.Status, ref)
		require.Equal(t, backend.ErrorSourceDownstream, r.ErrorSource, ref)
	}
}

func TestUnreachableServerPerQuery(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	url := "http://" + l.Addr().String()
	require.NoError(t, l.Close())
	d := newDS(t, url)
	resp := run(t, d, q("A", "both", `{"profileTypeId":"`+cpuType+`"}`))
	r := resp.Responses["A"]
	require.EqualError(t, r.Error, "cannot reach profile server at "+url+": connection refused")
	require.Equal(t, backend.StatusBadGateway, r.Status)
	require.Equal(t, backend.ErrorSourceDownstream, r.ErrorSource)
}

// TestEmptyRangeIsNoData: a range before any profile is "No data", not an
// error, while a profile type the server lacks is still named as a mistake.
func TestEmptyRangeIsNoData(t *testing.T) {
	fx := storeFixture(t)
	d := newDS(t, fx.url)
	long := backend.TimeRange{From: time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC), To: time.Date(2001, 1, 1, 1, 0, 0, 0, time.UTC)}
	empty := q("EMPTY", "both", `{"profileTypeId":"`+cpuType+`","labelSelector":"{}"}`)
	empty.TimeRange = long
	resp := run(t, d, empty)
	r := resp.Responses["EMPTY"]
	require.NoError(t, r.Error)
	total := int64(0)
	for _, f := range r.Frames {
		if f.Name == "flamegraph" || f.Fields[0].Name == "level" {
			total += f.Fields[1].At(0).(int64)
		}
	}
	require.Zero(t, total, "an empty range draws an empty flamegraph")
}

// TestServerErrorsAreDownstream: a profile server's error, from either
// client and however wrapped, reaches Grafana as the SDK's downstream error
// with the status of its kind.
func TestServerErrorsAreDownstream(t *testing.T) {
	for kind, status := range map[model.ErrorKind]backend.Status{
		model.KindUnreachable:   backend.StatusBadGateway,
		model.KindTimeout:       backend.StatusTimeout,
		model.KindAuth:          backend.StatusUnauthorized,
		model.KindBadRequest:    backend.StatusBadRequest,
		model.KindNotFound:      backend.StatusNotFound,
		model.KindUnimplemented: backend.Status(http.StatusNotImplemented),
		model.KindServer:        backend.StatusBadGateway,
	} {
		err := fmt.Errorf("virtual frames: %w", &model.Error{Kind: kind, Msg: "parca refused access"})
		r := errorResponse(err)
		require.Equal(t, status, r.Status, kind.String())
		require.Equal(t, backend.ErrorSourceDownstream, r.ErrorSource, kind.String())
		require.True(t, backend.IsDownstreamError(r.Error), kind.String())
		require.EqualError(t, r.Error, "virtual frames: parca refused access")
	}
	r := errorResponse(errors.New("a bug"))
	require.Equal(t, backend.ErrorSourcePlugin, r.ErrorSource)
	require.Equal(t, backend.StatusInternal, r.Status)
}
