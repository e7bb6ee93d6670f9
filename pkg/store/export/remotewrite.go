// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Package export delivers recorded series (package recording): by
// Prometheus remote write (RemoteWriter) or, without it, as counters on the
// store's scrape endpoint (Counters).
package export

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/golang/snappy"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/prometheus/prompb"

	"github.com/emberscope/emberscope/pkg/store/recording"
)

// RemoteWriteOptions configure a RemoteWriter.
type RemoteWriteOptions struct {
	// URL is the remote write endpoint (http or https), such as
	// Prometheus' /api/v1/write.
	URL string
	// QueueSize bounds the samples waiting to be sent (10000 when zero);
	// beyond it new samples are dropped and counted.
	QueueSize int
	// BatchSize bounds the samples of one request (500 when zero).
	BatchSize int
	// MinBackoff and MaxBackoff bound the wait between retries of a
	// failed request (100ms and 10s when zero); it doubles each time.
	MinBackoff, MaxBackoff time.Duration
	// Timeout bounds one request (10s when zero).
	Timeout time.Duration
	// Client sends the requests (a new client when nil).
	Client *http.Client
	// Registerer receives the sent, retried, dropped and queued counters.
	Registerer prometheus.Registerer
	Logger     *slog.Logger
}

// RemoteWriter sends recorded points to a remote write endpoint from a
// bounded queue, one tenant per request (its id in X-Scope-OrgID). Record
// never blocks; a request that fails for a reason that can pass (network,
// 5xx, 429) is retried with backoff, holding its samples in the queue.
type RemoteWriter struct {
	o       RemoteWriteOptions
	url     string
	metrics writerMetrics

	mu     sync.Mutex
	queue  []queued
	wake   chan struct{}
	closed bool

	stop context.CancelFunc
	done chan struct{}
}

type queued struct {
	tenant string
	point  recording.Point
}

type writerMetrics struct {
	sent, retried prometheus.Counter
	dropped       *prometheus.CounterVec
	queued        prometheus.GaugeFunc
}

// NewRemoteWriter checks the URL and starts the sender.
func NewRemoteWriter(o RemoteWriteOptions) (*RemoteWriter, error) {
	u, err := url.Parse(o.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("remote write URL %q: want an http or https URL with a host, such as http://127.0.0.1:9090/api/v1/write", o.URL)
	}
	if o.QueueSize <= 0 {
		o.QueueSize = 10000
	}
	if o.BatchSize <= 0 {
		o.BatchSize = 500
	}
	if o.MinBackoff <= 0 {
		o.MinBackoff = 100 * time.Millisecond
	}
	if o.MaxBackoff < o.MinBackoff {
		o.MaxBackoff = max(10*time.Second, o.MinBackoff)
	}
	if o.Timeout <= 0 {
		o.Timeout = 10 * time.Second
	}
	if o.Client == nil {
		o.Client = &http.Client{}
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	w := &RemoteWriter{o: o, url: u.String(), wake: make(chan struct{}, 1), done: make(chan struct{})}
	w.metrics = writerMetrics{
		sent: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "emberscope_recording_remote_write_samples_sent_total",
			Help: "Recorded samples accepted by the remote write endpoint.",
		}),
		retried: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "emberscope_recording_remote_write_samples_retried_total",
			Help: "Recorded samples sent again after a failed remote write request.",
		}),
		dropped: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "emberscope_recording_remote_write_samples_dropped_total",
			Help: "Recorded samples never delivered, by reason: queue_full (the queue was at its bound), rejected (the endpoint refused them for good), shutdown (still queued when the store stopped).",
		}, []string{"reason"}),
		queued: prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "emberscope_recording_remote_write_queue_samples",
			Help: "Recorded samples waiting to be sent.",
		}, func() float64 { return float64(w.Queued()) }),
	}
	for _, reason := range []string{"queue_full", "rejected", "shutdown"} {
		w.metrics.dropped.WithLabelValues(reason)
	}
	if o.Registerer != nil {
		for _, c := range []prometheus.Collector{w.metrics.sent, w.metrics.retried, w.metrics.dropped, w.metrics.queued} {
			if err := o.Registerer.Register(c); err != nil {
				return nil, err
			}
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	w.stop = cancel
	go w.run(ctx)
	return w, nil
}

// Record queues points for the tenant; what does not fit is dropped and
// counted. It never blocks on the network.
func (w *RemoteWriter) Record(tenant string, points []recording.Point) {
	w.mu.Lock()
	free, closed := w.o.QueueSize-len(w.queue), w.closed
	if closed {
		free = 0
	}
	n := min(max(free, 0), len(points))
	for _, p := range points[:n] {
		w.queue = append(w.queue, queued{tenant, p})
	}
	w.mu.Unlock()
	switch dropped := len(points) - n; {
	case dropped > 0 && closed:
		w.metrics.dropped.WithLabelValues("shutdown").Add(float64(dropped))
	case dropped > 0:
		w.metrics.dropped.WithLabelValues("queue_full").Add(float64(dropped))
		w.o.Logger.Warn("recording rules: remote write queue full, samples dropped", "dropped", dropped, "queue_size", w.o.QueueSize)
	}
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// Queued is the number of samples waiting to be sent.
func (w *RemoteWriter) Queued() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.queue)
}

// Close stops accepting points and sends what is queued until ctx is done;
// what is left then is counted as dropped.
func (w *RemoteWriter) Close(ctx context.Context) {
	w.mu.Lock()
	w.closed = true
	w.mu.Unlock()
	select {
	case w.wake <- struct{}{}:
	default:
	}
	select {
	case <-w.done:
	case <-ctx.Done():
		w.stop()
		<-w.done
	}
	w.stop()
	if n := w.Queued(); n > 0 {
		w.metrics.dropped.WithLabelValues("shutdown").Add(float64(n))
	}
}

// run sends the queue's head batch until it is delivered or refused for
// good, then the next; it returns when stopped, or closed with an empty queue.
func (w *RemoteWriter) run(ctx context.Context) {
	defer close(w.done)
	for {
		batch, closed := w.head()
		if len(batch) == 0 {
			if closed {
				return
			}
			select {
			case <-ctx.Done():
				return
			case <-w.wake:
			}
			continue
		}
		if !w.deliver(ctx, batch) {
			return
		}
		w.mu.Lock()
		w.queue = w.queue[len(batch):]
		w.mu.Unlock()
	}
}

// head is up to BatchSize samples of the first queued tenant.
func (w *RemoteWriter) head() ([]queued, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := 0
	for n < len(w.queue) && n < w.o.BatchSize && w.queue[n].tenant == w.queue[0].tenant {
		n++
	}
	return w.queue[:n:n], w.closed
}

// deliver sends batch, retrying with backoff; false when stopped first.
func (w *RemoteWriter) deliver(ctx context.Context, batch []queued) bool {
	body, err := encode(batch)
	if err != nil {
		w.metrics.dropped.WithLabelValues("rejected").Add(float64(len(batch)))
		w.o.Logger.Error("recording rules: encoding remote write request", "err", err)
		return true
	}
	backoff := w.o.MinBackoff
	for {
		err := w.send(ctx, batch[0].tenant, body)
		var perm *permanentError
		switch {
		case err == nil:
			w.metrics.sent.Add(float64(len(batch)))
			return true
		case errors.As(err, &perm):
			w.metrics.dropped.WithLabelValues("rejected").Add(float64(len(batch)))
			w.o.Logger.Warn("recording rules: remote write refused samples", "url", w.url, "samples", len(batch), "err", err)
			return true
		}
		w.o.Logger.Warn("recording rules: remote write failed, retrying", "url", w.url, "samples", len(batch), "backoff", backoff, "err", err)
		t := time.NewTimer(backoff)
		select {
		case <-ctx.Done():
			t.Stop()
			return false
		case <-t.C:
		}
		w.metrics.retried.Add(float64(len(batch)))
		backoff = min(2*backoff, w.o.MaxBackoff)
	}
}

// permanentError is an answer that sending again cannot change (4xx but 429).
type permanentError struct{ err error }

func (e *permanentError) Error() string { return e.err.Error() }

func (w *RemoteWriter) send(ctx context.Context, tenant string, body []byte) error {
	ctx, cancel := context.WithTimeout(ctx, w.o.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.url, bytes.NewReader(body))
	if err != nil {
		return &permanentError{err}
	}
	req.Header.Set("Content-Type", "application/x-protobuf")
	req.Header.Set("Content-Encoding", "snappy")
	req.Header.Set("X-Prometheus-Remote-Write-Version", "0.1.0")
	req.Header.Set("User-Agent", "emberscope-recording-rules")
	req.Header.Set("X-Scope-OrgID", tenant)
	resp, err := w.o.Client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	msg, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	switch {
	case resp.StatusCode/100 == 2:
		return nil
	case resp.StatusCode/100 == 4 && resp.StatusCode != http.StatusTooManyRequests:
		return &permanentError{fmt.Errorf("%s: %s", resp.Status, bytes.TrimSpace(msg))}
	}
	return fmt.Errorf("%s: %s", resp.Status, bytes.TrimSpace(msg))
}

// encode builds the snappy-compressed protobuf WriteRequest of a batch,
// one time series per distinct label set.
func encode(batch []queued) ([]byte, error) {
	index := map[string]int{}
	req := &prompb.WriteRequest{}
	for _, q := range batch {
		key := q.point.Labels.String()
		i, ok := index[key]
		if !ok {
			i = len(req.Timeseries)
			index[key] = i
			req.Timeseries = append(req.Timeseries, prompb.TimeSeries{Labels: prompb.FromLabels(q.point.Labels, nil)})
		}
		ts := &req.Timeseries[i]
		ts.Samples = append(ts.Samples, prompb.Sample{Value: q.point.Value, Timestamp: q.point.TimeMillis})
	}
	raw, err := req.Marshal()
	if err != nil {
		return nil, err
	}
	return snappy.Encode(nil, raw), nil
}
