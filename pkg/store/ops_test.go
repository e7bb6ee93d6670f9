// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package store_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"connectrpc.com/connect"
	querierv1 "github.com/grafana/pyroscope/api/gen/proto/go/querier/v1"
	typesv1 "github.com/grafana/pyroscope/api/gen/proto/go/types/v1"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/pkg/store"
)

func (s *server) get(path string) (int, string) {
	s.t.Helper()
	resp, err := s.srv.Client().Get(s.srv.URL + path)
	require.NoError(s.t, err)
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

func TestReadyAndMetrics(t *testing.T) {
	s := newServer(t, t.TempDir())
	status, body := s.get("/ready")
	require.Equal(t, http.StatusOK, status)
	require.Equal(t, "ready\n", body)

	data := cpuData(t)
	status, text := s.ingest(ingestParams("app"), "", data)
	require.Equal(t, 200, status, text)
	status, _ = s.ingest(ingestParams("app"), "", data[:20])
	require.Equal(t, 422, status)

	status, body = s.get("/metrics")
	require.Equal(t, http.StatusOK, status)
	for _, want := range []string{
		`emberscope_ingest_profiles_total{profile_type="process_cpu:cpu:nanoseconds:cpu:nanoseconds"} 4`, // parse, hash, sort, unlabelled
		`emberscope_ingest_errors_total{reason="bad_profile"} 1`,
		`emberscope_ingest_received_compressed_bytes_total{api="ingest"}`,
		`emberscope_ingest_received_uncompressed_bytes_total{api="ingest"}`,
		`emberscope_ingest_profile_size_bytes_bucket{encoding="uncompressed"`,
	} {
		require.Contains(t, body, want)
	}
}

func TestProfileTimePlacement(t *testing.T) {
	s := newServer(t, t.TempDir())
	body := "main;work 3\n"
	// from in µs; the folded profile has no time of its own.
	params := url.Values{"name": {"placed"}, "format": {"folded"}, "from": {"1700000000123456"}}
	status, text := s.ingest(params, "", []byte(body))
	require.Equal(t, 200, status, text)
	at := int64(1700000000123)
	query := func(start, end int64) int64 {
		resp, err := s.querier.SelectMergeStacktraces(context.Background(), connect.NewRequest(&querierv1.SelectMergeStacktracesRequest{
			ProfileTypeID: cpuType, LabelSelector: "{}", Start: start, End: end,
		}))
		require.NoError(t, err)
		if resp.Msg.Flamegraph == nil {
			return 0
		}
		return resp.Msg.Flamegraph.Total
	}
	require.Equal(t, int64(3e7), query(at, at))
	require.Zero(t, query(at+1, at+1000))
	require.Zero(t, query(at-1000, at-1))
	// Pyroscope v2 answers GetProfileStats with an empty message (recording 31).
	stats, err := s.querier.GetProfileStats(context.Background(), connect.NewRequest(&typesv1.GetProfileStatsRequest{}))
	require.NoError(t, err)
	require.False(t, stats.Msg.DataIngested)

	// A pprof's own time wins over from.
	data := cpuData(t)
	p := parse(t, data)
	params = ingestParams("own")
	params.Set("from", "1600000000")
	status, text = s.ingest(params, "", data)
	require.Equal(t, 200, status, text)
	own := p.TimeNanos / 1e6
	resp, err := s.querier.SelectMergeStacktraces(context.Background(), connect.NewRequest(&querierv1.SelectMergeStacktracesRequest{
		ProfileTypeID: cpuType, LabelSelector: `{service_name="own"}`, Start: own, End: own,
	}))
	require.NoError(t, err)
	require.NotZero(t, resp.Msg.Flamegraph.Total)
}

func TestSeriesAndGzipEncoding(t *testing.T) {
	s := newServer(t, t.TempDir())
	data := cpuData(t)
	raw := parse(t, data)
	var plain strings.Builder
	require.NoError(t, raw.WriteUncompressed(&plain))
	req, err := http.NewRequest(http.MethodPost, s.srv.URL+"/ingest?name=zipped&format=pprof", strings.NewReader(string(gz(t, []byte(plain.String())))))
	require.NoError(t, err)
	req.Header.Set("Content-Encoding", "gzip")
	resp, err := s.srv.Client().Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, 200, resp.StatusCode)

	series, err := s.querier.Series(context.Background(), connect.NewRequest(&querierv1.SeriesRequest{
		Matchers: []string{`{__profile_type__="` + cpuType + `"}`}, LabelNames: []string{"service_name", "category"}, Start: 1, End: farFuture,
	}))
	require.NoError(t, err)
	var got []string
	for _, ls := range series.Msg.LabelsSet {
		var parts []string
		for _, l := range ls.Labels {
			parts = append(parts, l.Name+"="+l.Value)
		}
		got = append(got, strings.Join(parts, ","))
	}
	require.ElementsMatch(t, []string{"category=hash,service_name=zipped", "category=parse,service_name=zipped", "category=sort,service_name=zipped", "service_name=zipped"}, got)
}

func TestConcurrentIngestAndQuery(t *testing.T) {
	s := newServer(t, t.TempDir())
	data := cpuData(t)
	_, total := flatTotal(t, data)
	var wg sync.WaitGroup
	const writers, each = 3, 5
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				req, _ := http.NewRequest(http.MethodPost, s.srv.URL+"/ingest?name=busy&format=pprof", strings.NewReader(string(data)))
				resp, err := s.srv.Client().Do(req)
				if err == nil {
					resp.Body.Close()
				}
			}
		}()
	}
	for i := 0; i < 10; i++ {
		s.flame(cpuType, `{service_name="busy"}`, 0)
	}
	wg.Wait()
	require.Equal(t, writers*each*total, s.flame(cpuType, `{service_name="busy"}`, 0).total)
}

func TestTooLargeBodyRefused(t *testing.T) {
	st, err := store.Open(store.Options{Dir: t.TempDir(), MaxBodyBytes: 1024})
	require.NoError(t, err)
	defer st.Close()
	srv := httptest.NewServer(st.Handler())
	defer srv.Close()
	resp, err := srv.Client().Post(srv.URL+"/ingest?name=big&format=pprof", "application/octet-stream", strings.NewReader(string(cpuData(t))+strings.Repeat("x", 4096)))
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.Equal(t, http.StatusRequestEntityTooLarge, resp.StatusCode)
	require.Contains(t, string(body), "larger than 1024 bytes")
}

func TestMaxAgeRefusesOldProfiles(t *testing.T) {
	st, err := store.Open(store.Options{Dir: t.TempDir(), MaxAge: time.Hour})
	require.NoError(t, err)
	defer st.Close()
	srv := httptest.NewServer(st.Handler())
	defer srv.Close()
	post := func(from string) (int, string) {
		resp, err := srv.Client().Post(srv.URL+"/ingest?name=old&format=folded&from="+from, "text/plain", strings.NewReader("main;work 1\n"))
		require.NoError(t, err)
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body)
	}
	status, body := post("1700000000")
	require.Equal(t, http.StatusUnprocessableEntity, status)
	require.Contains(t, body, "older than the maximum age 1h0m0s")
	status, body = post(strconv.FormatInt(time.Now().Unix(), 10))
	require.Equal(t, http.StatusOK, status, body)
}
