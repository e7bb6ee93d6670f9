// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package store_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"

	"connectrpc.com/connect"
	"github.com/google/pprof/profile"
	"github.com/grafana/pyroscope/api/gen/proto/go/push/v1/pushv1connect"
	querierv1 "github.com/grafana/pyroscope/api/gen/proto/go/querier/v1"
	"github.com/grafana/pyroscope/api/gen/proto/go/querier/v1/querierv1connect"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/pkg/store"
)

// server is a store behind a real HTTP server with real connect clients.
type server struct {
	t       *testing.T
	dir     string
	st      *store.Store
	srv     *httptest.Server
	querier querierv1connect.QuerierServiceClient
	pusher  pushv1connect.PusherServiceClient
}

func newServer(t *testing.T, dir string) *server {
	t.Helper()
	st, err := store.Open(store.Options{Dir: dir, NoIngestWindow: true, NoRetention: true})
	require.NoError(t, err)
	srv := httptest.NewServer(st.Handler())
	s := &server{
		t: t, dir: dir, st: st, srv: srv,
		querier: querierv1connect.NewQuerierServiceClient(srv.Client(), srv.URL),
		pusher:  pushv1connect.NewPusherServiceClient(srv.Client(), srv.URL),
	}
	t.Cleanup(s.close)
	return s
}

func (s *server) close() {
	if s.srv != nil {
		s.srv.Close()
		require.NoError(s.t, s.st.Close())
		s.srv = nil
	}
}

// restart closes the store and opens it again on the same directory.
func (s *server) restart() *server {
	s.close()
	return newServer(s.t, s.dir)
}

// ingest posts body to /ingest with the query parameters and returns the
// status and response text.
func (s *server) ingest(params url.Values, contentType string, body []byte) (int, string) {
	s.t.Helper()
	req, err := http.NewRequest(http.MethodPost, s.srv.URL+"/ingest?"+params.Encode(), bytes.NewReader(body))
	require.NoError(s.t, err)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := s.srv.Client().Do(req)
	require.NoError(s.t, err)
	defer resp.Body.Close()
	text, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(text)
}

// flame is a decoded flamegraph: total and self per function name.
type flame struct {
	total int64
	self  map[string]int64
	names map[string]bool
	nodes int
}

// decodeFlamegraph decodes Pyroscope's levels (4-int tuples with x delta
// encoded per level) and checks that children lie within their parents.
func decodeFlamegraph(t *testing.T, fg *querierv1.FlameGraph) flame {
	t.Helper()
	out := flame{self: map[string]int64{}, names: map[string]bool{}}
	if fg == nil || len(fg.Levels) == 0 {
		return out
	}
	require.Equal(t, "total", fg.Names[0])
	type span struct{ x, total int64 }
	var prev []span
	for d, lv := range fg.Levels {
		require.Zero(t, len(lv.Values)%4, "level %d", d)
		var cur []span
		x := int64(0)
		for i := 0; i < len(lv.Values); i += 4 {
			x += lv.Values[i]
			total, self, name := lv.Values[i+1], lv.Values[i+2], fg.Names[lv.Values[i+3]]
			if d > 0 {
				inside := false
				for _, p := range prev {
					if x >= p.x && x+total <= p.x+p.total {
						inside = true
					}
				}
				require.True(t, inside, "node %s at level %d [%d,%d) lies outside every parent", name, d, x, x+total)
			}
			cur = append(cur, span{x, total})
			out.self[name] += self
			out.names[name] = true
			out.nodes++
			x += total
		}
		prev = cur
	}
	out.total = fg.Total
	require.Equal(t, fg.Levels[0].Values[1], fg.Total)
	delete(out.self, "total")
	for k, v := range out.self {
		if v == 0 {
			delete(out.self, k)
		}
	}
	return out
}

func (s *server) flame(typeID, selector string, maxNodes int64) flame {
	s.t.Helper()
	resp, err := s.querier.SelectMergeStacktraces(context.Background(), connect.NewRequest(&querierv1.SelectMergeStacktracesRequest{
		ProfileTypeID: typeID, LabelSelector: selector, Start: 1, End: farFuture, MaxNodes: &maxNodes,
	}))
	require.NoError(s.t, err)
	return decodeFlamegraph(s.t, resp.Msg.Flamegraph)
}

// farFuture is an end time (unix ms) after every test profile.
const farFuture = int64(4102444800000) // 2100-01-01

func gz(t testing.TB, data []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	_, err := zw.Write(data)
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	return buf.Bytes()
}

func parse(t testing.TB, data []byte) *profile.Profile {
	t.Helper()
	p, err := profile.ParseData(data)
	require.NoError(t, err)
	return p
}

// withoutZeroSelf drops zero entries so maps compare like the flamegraph's.
func withoutZero(m map[string]int64) map[string]int64 {
	out := make(map[string]int64)
	for k, v := range m {
		if v != 0 {
			out[k] = v
		}
	}
	return out
}

// flatTotal parses a pprof and returns it with its cpu (index 1) total.
func flatTotal(t *testing.T, data []byte) (*profile.Profile, int64) {
	t.Helper()
	p := parse(t, data)
	var total int64
	for _, s := range p.Sample {
		total += s.Value[1]
	}
	return p, total
}
