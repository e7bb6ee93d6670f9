// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package export_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/golang/snappy"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/prompb"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/pkg/store/export"
	"github.com/emberscope/emberscope/pkg/store/recording"
)

func point(name string, v float64) recording.Point {
	return recording.Point{Labels: labels.FromStrings("__name__", name, "profiles_rule_id", "abc"), TimeMillis: 1_700_000_000_000, Value: v}
}

// receiver decodes remote write requests as Prometheus does; answer
// chooses each request's status.
type receiver struct {
	mu       sync.Mutex
	requests []*prompb.WriteRequest
	tenants  []string
	answer   func(n int) int
	calls    atomic.Int32
}

func (rc *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	n := int(rc.calls.Add(1))
	if status := rc.answer(n); status != http.StatusNoContent {
		http.Error(w, "not now", status)
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil || r.Header.Get("Content-Encoding") != "snappy" || r.Header.Get("Content-Type") != "application/x-protobuf" {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	raw, err := snappy.Decode(nil, body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	req := &prompb.WriteRequest{}
	if err := req.Unmarshal(raw); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	rc.mu.Lock()
	rc.requests = append(rc.requests, req)
	rc.tenants = append(rc.tenants, r.Header.Get("X-Scope-OrgID"))
	rc.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}

func newWriter(t *testing.T, url string, o export.RemoteWriteOptions) (*export.RemoteWriter, *prometheus.Registry) {
	t.Helper()
	reg := prometheus.NewRegistry()
	o.URL, o.Registerer = url, reg
	if o.MinBackoff == 0 {
		o.MinBackoff, o.MaxBackoff = time.Millisecond, 5*time.Millisecond
	}
	w, err := export.NewRemoteWriter(o)
	require.NoError(t, err)
	t.Cleanup(func() { w.Close(t.Context()) })
	return w, reg
}

func counter(t *testing.T, reg *prometheus.Registry, name string, labelValues ...string) float64 {
	t.Helper()
	families, err := reg.Gather()
	require.NoError(t, err)
	for _, f := range families {
		if f.GetName() != name {
			continue
		}
		for _, m := range f.Metric {
			if len(labelValues) == 0 || (len(m.Label) == 1 && m.Label[0].GetValue() == labelValues[0]) {
				if m.Counter != nil {
					return m.Counter.GetValue()
				}
				return m.Gauge.GetValue()
			}
		}
	}
	t.Fatalf("no metric %s %v", name, labelValues)
	return 0
}

// waitFor polls cond; go test's -timeout bounds the wait.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for !cond() {
		time.Sleep(2 * time.Millisecond) // polling: cond decides
	}
}

// TestRemoteWriteRetriesThenDelivers: a 503, a 429 and a connection that
// hangs past the timeout are retried (and counted); the samples then
// arrive once, in one request per tenant, the tenant in X-Scope-OrgID.
func TestRemoteWriteRetriesThenDelivers(t *testing.T) {
	rc := &receiver{answer: func(n int) int {
		switch n {
		case 1:
			return http.StatusServiceUnavailable
		case 2:
			return http.StatusTooManyRequests
		}
		return http.StatusNoContent
	}}
	hang := make(chan struct{})
	hung := atomic.Bool{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if hung.CompareAndSwap(false, true) {
			select { // hangs until the writer gives up on the request
			case <-r.Context().Done():
			case <-hang:
			}
			return
		}
		rc.ServeHTTP(w, r)
	}))
	t.Cleanup(func() { close(hang); srv.Close() })
	// The timeout ends the hanging request; it is long enough that an
	// answered request never reaches it on a busy machine, where a shorter
	// one turned an answered 503 into one more counted try.
	w, reg := newWriter(t, srv.URL, export.RemoteWriteOptions{Timeout: time.Second})

	w.Record("team-a", []recording.Point{point("profiles_recorded_a", 5), point("profiles_recorded_b", 7)})
	waitFor(t, func() bool { return counter(t, reg, "emberscope_recording_remote_write_samples_sent_total") == 2 })
	require.Equal(t, 6.0, counter(t, reg, "emberscope_recording_remote_write_samples_retried_total"), "three failed tries of two samples")
	w.Record("team-b", []recording.Point{point("profiles_recorded_a", 1)})
	waitFor(t, func() bool { return counter(t, reg, "emberscope_recording_remote_write_samples_sent_total") == 3 })

	rc.mu.Lock()
	defer rc.mu.Unlock()
	require.Equal(t, []string{"team-a", "team-b"}, rc.tenants)
	require.Len(t, rc.requests[0].Timeseries, 2)
	ts := rc.requests[0].Timeseries[0]
	require.Equal(t, []prompb.Label{{Name: "__name__", Value: "profiles_recorded_a"}, {Name: "profiles_rule_id", Value: "abc"}}, ts.Labels)
	require.Equal(t, []prompb.Sample{{Value: 5, Timestamp: 1_700_000_000_000}}, ts.Samples)
	require.Zero(t, counter(t, reg, "emberscope_recording_remote_write_samples_dropped_total", "rejected"))
}

// TestRemoteWriteRejected: a 400 cannot pass by retrying; the samples are
// dropped and counted as rejected, and the next ones still go.
func TestRemoteWriteRejected(t *testing.T) {
	rc := &receiver{answer: func(n int) int {
		if n == 1 {
			return http.StatusBadRequest
		}
		return http.StatusNoContent
	}}
	srv := httptest.NewServer(rc)
	t.Cleanup(srv.Close)
	w, reg := newWriter(t, srv.URL, export.RemoteWriteOptions{})
	w.Record("anonymous", []recording.Point{point("profiles_recorded_a", 1)})
	waitFor(t, func() bool {
		return counter(t, reg, "emberscope_recording_remote_write_samples_dropped_total", "rejected") == 1
	})
	w.Record("anonymous", []recording.Point{point("profiles_recorded_a", 2)})
	waitFor(t, func() bool { return counter(t, reg, "emberscope_recording_remote_write_samples_sent_total") == 1 })
	require.Zero(t, counter(t, reg, "emberscope_recording_remote_write_samples_retried_total"))
}

// TestRemoteWriteQueueBound: while the endpoint hangs, Record returns at
// once; what exceeds the queue is dropped and counted, and on Close what is
// still queued is counted as dropped at shutdown.
func TestRemoteWriteQueueBound(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
		http.Error(w, "down", http.StatusServiceUnavailable)
	}))
	t.Cleanup(func() { close(release); srv.Close() })
	w, reg := newWriter(t, srv.URL, export.RemoteWriteOptions{QueueSize: 3, Timeout: time.Hour})
	for i := range 5 {
		w.Record("anonymous", []recording.Point{point("profiles_recorded_a", float64(i))})
	}
	require.Equal(t, 3, w.Queued())
	require.Equal(t, 2.0, counter(t, reg, "emberscope_recording_remote_write_samples_dropped_total", "queue_full"))
	ctx, cancel := context.WithCancel(t.Context())
	cancel() // no time left to deliver
	w.Close(ctx)
	require.Equal(t, 3.0, counter(t, reg, "emberscope_recording_remote_write_samples_dropped_total", "shutdown"))
	w.Record("anonymous", []recording.Point{point("profiles_recorded_a", 9)}) // after Close
	require.Equal(t, 4.0, counter(t, reg, "emberscope_recording_remote_write_samples_dropped_total", "shutdown"))
	require.Equal(t, 2.0, counter(t, reg, "emberscope_recording_remote_write_samples_dropped_total", "queue_full"))
}

// TestRemoteWriteURL: a URL that is not http(s) with a host is refused.
func TestRemoteWriteURL(t *testing.T) {
	for _, u := range []string{"", "ftp://host/x", "http://", "/api/v1/write", "::"} {
		_, err := export.NewRemoteWriter(export.RemoteWriteOptions{URL: u})
		require.ErrorContains(t, err, "want an http or https URL", u)
	}
}
