// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package demo

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"runtime/pprof"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRequestsAreTracedAndSpanProfiled CPU-profiles car trips and checks, as
// google/pprof reads the profile, that every sample of the route planning
// carries the span_id, span_name and trace_id labels of one of the server
// spans the OpenTelemetry SDK ended (GET /debug/spans lists them), as
// otel-profiling-go labels them, beside the service's own labels.
func TestRequestsAreTracedAndSpanProfiled(t *testing.T) {
	svc := NewService()
	srv := httptest.NewServer(svc.Handler())
	defer srv.Close()

	var samples []*profile.Sample
	for round := 0; round < 20 && len(samples) < 5; round++ {
		var buf bytes.Buffer
		require.NoError(t, pprof.StartCPUProfile(&buf))
		for range 20 {
			// getTrip reads the whole answer, as a client does. A request's
			// span ends when its handler returns (traced's deferred End). The
			// trip is written without a Content-Length, so net/http sends a
			// body larger than its buffer in chunks while the handler still
			// runs: the headers can reach the client before the span ends, and
			// only the last chunk, sent after the handler returned, completes
			// the answer. A client that stopped at the headers could list
			// GET /debug/spans before that span ended.
			status, _, body := getTrip(t, srv.URL+"/car?from=0&to=8099")
			require.Equal(t, http.StatusOK, status, body)
		}
		pprof.StopCPUProfile()
		p, err := profile.Parse(&buf)
		require.NoError(t, err)
		for _, s := range p.Sample {
			if hasFunction(s, "demo.(*cityMap).planCarRoute") || hasFunction(s, "planCarRoute") {
				samples = append(samples, s)
			}
		}
	}
	require.GreaterOrEqual(t, len(samples), 5, "samples of the route planning")

	resp, err := http.Get(srv.URL + "/debug/spans")
	require.NoError(t, err)
	defer resp.Body.Close()
	var spans []SpanRecord
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&spans))
	require.LessOrEqual(t, len(spans), recentSpans)
	traceOf := map[string]string{}
	for _, s := range spans {
		assert.Equal(t, "GET /car", s.Name)
		traceOf[s.SpanID] = s.TraceID
	}
	for _, s := range samples {
		id := strings.Join(s.Label["span_id"], ",")
		trace, ok := traceOf[id]
		require.True(t, ok, "a sample's span_id %q is one of the %d ended spans (labels %v)", id, len(spans), s.Label)
		assert.Equal(t, []string{trace}, s.Label["trace_id"])
		assert.Equal(t, []string{"GET /car"}, s.Label["span_name"])
		assert.Equal(t, []string{"car"}, s.Label["vehicle"], "the service's own labels stay")
	}
}

func hasFunction(s *profile.Sample, suffix string) bool {
	for _, loc := range s.Location {
		for _, l := range loc.Line {
			if l.Function != nil && strings.HasSuffix(l.Function.Name, suffix) {
				return true
			}
		}
	}
	return false
}
