// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package demo

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/grafana/pyroscope/api/gen/proto/go/querier/v1/querierv1connect"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/pkg/store"
)

// shortOptions runs the demo on free loopback ports with a fast upload rate.
func shortOptions(t *testing.T, out io.Writer) Options {
	return Options{
		Listen:      "127.0.0.1:0",
		StoreListen: "127.0.0.1:0",
		StaticDir:   t.TempDir(), // no page: the API is what is tested
		UploadRate:  time.Second,
		Workers:     2,
		Pause:       5 * time.Millisecond,
		Out:         out,
		Logger:      slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})),
		// This test binary, in service mode (see TestMain).
		ServiceCommand: []string{os.Args[0]},
	}
}

// dsQuery posts one query to the playground's /api/ds/query over the last
// hour and returns refId A's frames.
func dsQuery(t *testing.T, playgroundURL string, query map[string]any) []frameJSON {
	t.Helper()
	query["refId"] = "A"
	query["datasource"] = map[string]string{"uid": "emberscope"}
	body, err := json.Marshal(map[string]any{"from": "now-1h", "to": "now+1m", "queries": []any{query}})
	require.NoError(t, err)
	resp, err := http.Post(playgroundURL+"/api/ds/query", "application/json", bytes.NewReader(body))
	require.NoError(t, err)
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode, "query %s: %s", body, raw)
	var out struct {
		Results map[string]struct {
			Frames []frameJSON `json:"frames"`
			Error  string      `json:"error"`
		} `json:"results"`
	}
	require.NoError(t, json.Unmarshal(raw, &out), "%s", raw)
	require.Empty(t, out.Results["A"].Error)
	return out.Results["A"].Frames
}

// frameJSON is the part of a Grafana data frame's JSON the test reads.
type frameJSON struct {
	Schema struct {
		Fields []struct {
			Name   string            `json:"name"`
			Labels map[string]string `json:"labels"`
			Config struct {
				Type struct {
					Enum struct {
						Text []string `json:"text"`
					} `json:"enum"`
				} `json:"type"`
			} `json:"config"`
		} `json:"fields"`
	} `json:"schema"`
	Data struct {
		Values []json.RawMessage `json:"values"`
	} `json:"data"`
}

// seriesLabelValues returns the values of label name over the series
// frames.
func seriesLabelValues(frames []frameJSON, name string) map[string]bool {
	vals := map[string]bool{}
	for _, f := range frames {
		for _, field := range f.Schema.Fields {
			if v, ok := field.Labels[name]; ok {
				vals[v] = true
			}
		}
	}
	return vals
}

// flameNames returns the node labels of the flamegraph frame (an enum field
// or plain strings).
func flameNames(t *testing.T, frames []frameJSON) []string {
	t.Helper()
	for _, f := range frames {
		for i, field := range f.Schema.Fields {
			if field.Name != "label" {
				continue
			}
			if text := field.Config.Type.Enum.Text; len(text) > 0 {
				return text
			}
			var names []string
			require.NoError(t, json.Unmarshal(f.Data.Values[i], &names))
			return names
		}
	}
	t.Fatalf("no flamegraph frame (with a label field) among %d frames", len(frames))
	return nil
}

// waitFor queries until check passes on the answer (profiles keep landing
// each upload period), at most 60 times, one second apart.
func waitFor(t *testing.T, what string, query func() []frameJSON, check func([]frameJSON) error) []frameJSON {
	t.Helper()
	var err error
	for range 60 {
		frames := query()
		if err = check(frames); err == nil {
			return frames
		}
		time.Sleep(time.Second)
	}
	t.Fatalf("%s: %v", what, err)
	return nil
}

func TestDemoServesQueryableProfiles(t *testing.T) {
	var out bytes.Buffer
	d, err := Start(shortOptions(t, &out))
	require.NoError(t, err)
	closed := false
	defer func() {
		if !closed {
			_ = d.Close()
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	require.NoError(t, d.WaitReady(ctx))

	cpu := `process_cpu:cpu:nanoseconds:cpu:nanoseconds`
	selector := `{service_name="ride-share-app"}`
	seriesBy := func(label string) func() []frameJSON {
		return func() []frameJSON {
			return dsQuery(t, d.PlaygroundURL, map[string]any{
				"queryType": "metrics", "profileTypeId": cpu, "labelSelector": selector, "groupBy": []string{label},
			})
		}
	}
	atLeast := func(label string, n int) func([]frameJSON) error {
		return func(frames []frameJSON) error {
			if got := seriesLabelValues(frames, label); len(got) < n {
				return fmt.Errorf("series by %s: %v, want at least %d values", label, got, n)
			}
			return nil
		}
	}
	byVehicle := waitFor(t, "series by vehicle", seriesBy("vehicle"), atLeast("vehicle", 3))
	vehicles := seriesLabelValues(byVehicle, "vehicle")
	for _, v := range Vehicles {
		assert.True(t, vehicles[v], "no series for vehicle %s (have %v)", v, vehicles)
	}
	byScenario := waitFor(t, "series by k6_scenario", seriesBy("k6_scenario"), atLeast("k6_scenario", 2))
	scenarios := seriesLabelValues(byScenario, "k6_scenario")
	assert.True(t, scenarios["browse"] && scenarios["checkout"], "k6 scenarios: %v", scenarios)
	// k6.name arrives normalised to the route.
	byName := waitFor(t, "series by k6_name", seriesBy("k6_name"), atLeast("k6_name", 2))
	for name := range seriesLabelValues(byName, "k6_name") {
		if name != "" {
			assert.Contains(t, []string{"/car", "/bike", "/scooter"}, name)
		}
	}

	// The flamegraph of the service's CPU holds the demo's handlers.
	flame := waitFor(t, "flamegraph", func() []frameJSON {
		return dsQuery(t, d.PlaygroundURL, map[string]any{
			"queryType": "profile", "profileTypeId": cpu, "labelSelector": selector,
		})
	}, func(frames []frameJSON) error {
		names := strings.Join(flameNames(t, frames), "\n")
		for _, fn := range []string{"planCarRoute", "planBikeRoute", "locateNearestScooters", "computeSurgePrice", "hashTripEvents"} {
			if !strings.Contains(names, fn) {
				return fmt.Errorf("the flamegraph has no %s", fn)
			}
		}
		return nil
	})
	all := strings.Join(flameNames(t, flame), "\n")
	assert.Contains(t, all, "pkg/hosts/demo.(*Service).serveTrip")
	// The service runs in its own process: the store's work is not in its
	// profiles.
	assert.NotContains(t, all, "emberscope/pkg/store")
	assert.NotContains(t, all, "pebble")

	// The query the demo prints opens in the playground and answers.
	link, err := url.Parse(d.QueryURL())
	require.NoError(t, err)
	expr := link.Query().Get("query")
	require.Equal(t, ReadyQuery, expr)
	names := flameNames(t, dsQuery(t, d.PlaygroundURL, map[string]any{"queryType": "profile", "expr": expr}))
	assert.Subset(t, names, []string{"car", "bike", "scooter"}, "the printed query should split the flamegraph by vehicle")

	requests, failures, lastErr := d.LoadStats()
	assert.Positive(t, requests)
	assert.Zero(t, failures, "last failure: %s", lastErr)

	// Close stops every server and removes the temporary data directory.
	tempDir := d.tempDir
	require.NoError(t, d.Close())
	closed = true
	for _, u := range []string{d.StoreURL, d.ServiceURL, d.PlaygroundURL} {
		_, err := net.Dial("tcp", strings.TrimPrefix(u, "http://"))
		assert.Error(t, err, "%s still accepts connections", u)
	}
	_, err = os.Stat(tempDir)
	assert.True(t, os.IsNotExist(err), "temporary data directory %s is left: %v", tempDir, err)
}

// notifyWriter is a goroutine-safe buffer that signals when a line
// containing a marker has been written.
type notifyWriter struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	marker string
	seen   chan struct{}
	once   sync.Once
}

func (w *notifyWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n, err := w.buf.Write(p)
	if strings.Contains(w.buf.String(), w.marker) {
		w.once.Do(func() { close(w.seen) })
	}
	return n, err
}

func (w *notifyWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

func TestRunPrintsReadyURLLastAndStopsOnCancel(t *testing.T) {
	out := &notifyWriter{marker: "Emberscope demo is ready: open ", seen: make(chan struct{})}
	opts := shortOptions(t, out)
	opts.DataDir = t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Run(ctx, opts, 0) }()

	select {
	case <-out.seen:
	case err := <-done:
		t.Fatalf("Run returned before the demo was ready: %v\noutput:\n%s", err, out)
	}
	cancel() // what Ctrl-C does
	require.NoError(t, <-done)

	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	last := lines[len(lines)-1]
	require.True(t, strings.HasPrefix(last, "Emberscope demo is ready: open http://127.0.0.1:"), "last line: %q", last)
	u, err := url.Parse(strings.TrimPrefix(last, "Emberscope demo is ready: open "))
	require.NoError(t, err)
	assert.Equal(t, AppHome, u.Path, "the demo opens on the app's home page")
	assert.Equal(t, CPUProfileType, u.Query().Get("type"))
	_, err = net.Dial("tcp", u.Host)
	assert.Error(t, err, "the playground still accepts connections after Run returned")

	// The data directory given is kept, with the store's files in it.
	entries, err := os.ReadDir(opts.DataDir)
	require.NoError(t, err)
	assert.NotEmpty(t, entries)
}

// TestCloseFlushesTheProfiler runs the demo with an upload period far longer
// than the test: the only profiles that can reach the store are the ones
// Close sends. Reopening the store's directory afterwards shows them — the
// heap profiles only arrive when Close flushes the SDK before stopping it.
func TestCloseFlushesTheProfiler(t *testing.T) {
	opts := shortOptions(t, io.Discard)
	opts.DataDir = t.TempDir()
	opts.UploadRate = time.Hour
	opts.NoPlayground = true
	d, err := Start(opts)
	require.NoError(t, err)
	// Let the load run until the service has answered some requests.
	for {
		if requests, _, _ := d.LoadStats(); requests >= 20 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	require.NoError(t, d.Close())

	st, err := store.Open(store.Options{Dir: opts.DataDir})
	require.NoError(t, err)
	defer st.Close()
	srv := httptest.NewServer(st.Handler())
	defer srv.Close()
	client := querierv1connect.NewQuerierServiceClient(srv.Client(), srv.URL)
	for _, typ := range []string{CPUProfileType, "memory:alloc_space:bytes:space:bytes"} {
		total, err := profileTotal(context.Background(), client, typ, time.Now().Add(-time.Hour))
		require.NoError(t, err)
		assert.Positive(t, total, "no %s of %s in the store after Close", typ, AppName)
	}
}
