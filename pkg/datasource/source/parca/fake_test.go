// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package parca

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/pkg/datasource/source"
)

// fakeParca answers /api/profiles/types and /api/profiles/query_range in
// Parca's JSON shapes and records the query parameters it was sent.
type fakeParca struct {
	types []wireProfileType
	// series answers query_range, keyed by the "query" parameter.
	series map[string]string

	mu    sync.Mutex
	calls []string
	got   []url.Values
}

func (f *fakeParca) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	f.calls = append(f.calls, r.URL.Path)
	f.got = append(f.got, r.URL.Query())
	f.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	switch r.URL.Path {
	case "/prefix/api/profiles/types":
		_ = json.NewEncoder(w).Encode(typesResponse{Types: f.types})
	case "/prefix/api/profiles/query_range":
		body, ok := f.series[r.URL.Query().Get("query")]
		if !ok {
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			w.WriteHeader(http.StatusNotFound)
			_, _ = w.Write([]byte("404 page not found\n"))
			return
		}
		_, _ = w.Write([]byte(body))
	default:
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(http.StatusNotFound)
	}
}

func newFake(t *testing.T, f *fakeParca) *Client {
	t.Helper()
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	c, err := New(Options{URL: srv.URL + "/prefix/", HTTPClient: srv.Client()})
	require.NoError(t, err)
	return c
}

var cpuWire = wireProfileType{Name: "process_cpu", SampleType: "cpu", SampleUnit: "nanoseconds",
	PeriodType: "cpu", PeriodUnit: "nanoseconds", Delta: true}

func TestResolveProfileType(t *testing.T) {
	f := &fakeParca{types: []wireProfileType{cpuWire}}
	c := newFake(t, f)
	ctx := context.Background()

	got, err := c.types.resolve(ctx, "process_cpu:cpu:nanoseconds:cpu:nanoseconds")
	require.NoError(t, err)
	assert.Equal(t, "process_cpu:cpu:nanoseconds:cpu:nanoseconds:delta", got)
	// Cached: no second fetch.
	_, err = c.types.resolve(ctx, "process_cpu:cpu:nanoseconds:cpu:nanoseconds")
	require.NoError(t, err)
	assert.Equal(t, []string{"/prefix/api/profiles/types"}, f.calls)

	// Unknown IDs are sent as they are; refetching is rate-limited.
	got, err = c.types.resolve(ctx, "wall:wall:nanoseconds:wall:nanoseconds")
	require.NoError(t, err)
	assert.Equal(t, "wall:wall:nanoseconds:wall:nanoseconds", got)
	assert.Len(t, f.calls, 1)

	got, err = c.types.resolve(ctx, "x:y:z:w:v:delta")
	require.NoError(t, err)
	assert.Equal(t, "x:y:z:w:v:delta", got)

	_, err = c.types.resolve(ctx, "process_cpu:cpu")
	require.ErrorContains(t, err, `profile type "process_cpu:cpu" has 2 parts`)
}

// Matchers on other labels are applied through query_range grouped by the
// asked label, one bucket over the whole range.
func TestLabelValuesThroughSeries(t *testing.T) {
	const q = `process_cpu:cpu:nanoseconds:cpu:nanoseconds:delta{region="eu"}`
	f := &fakeParca{
		types: []wireProfileType{cpuWire},
		series: map[string]string{q: `{"series":[
			{"labelset":{"labels":[{"name":"job","value":"api"}]},"samples":[{"timestamp":"2026-11-29T08:00:00Z","value":"5"}]},
			{"labelset":{"labels":[{"name":"job","value":"db"}]},"samples":[{"timestamp":"2026-11-29T08:00:00Z","value":"7"}]}]}`},
	}
	c := newFake(t, f)
	r := source.TimeRange{From: time.Date(2026, 11, 29, 7, 50, 0, 0, time.UTC), To: time.Date(2026, 11, 29, 8, 20, 0, 0, time.UTC)}
	values, err := c.LabelValues(context.Background(), "job", source.LabelsRequest{
		Matchers: []string{`{__profile_type__="process_cpu:cpu:nanoseconds:cpu:nanoseconds", region="eu"}`},
		Range:    r,
	})
	require.NoError(t, err)
	assert.Equal(t, []string{"api", "db"}, values)
	last := f.got[len(f.got)-1]
	assert.Equal(t, url.Values{
		"query": {q}, "start": {"2026-11-29T07:50:00Z"}, "end": {"2026-11-29T08:20:00Z"},
		"step": {"1800s"}, "sumBy": {"job"},
	}, last)

	// A selector matching nothing (Parca's 404) gives no values.
	values, err = c.LabelValues(context.Background(), "job", source.LabelsRequest{
		Matchers: []string{`{__profile_type__="process_cpu:cpu:nanoseconds:cpu:nanoseconds", region="us"}`},
		Range:    r,
	})
	require.NoError(t, err)
	assert.Empty(t, values)
}

func TestStep(t *testing.T) {
	for d, want := range map[time.Duration]string{
		time.Minute: "60s", time.Hour: "1h", 2 * time.Hour: "2h", 90 * time.Minute: "5400s",
		15 * time.Second: "15s", 1500 * time.Millisecond: "1.5s",
	} {
		assert.Equal(t, want, formatStep(d))
	}
	from := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
	assert.Equal(t, time.Second, defaultStep(source.TimeRange{From: from, To: from.Add(time.Minute)}))
	assert.Equal(t, 4*time.Second, defaultStep(source.TimeRange{From: from, To: from.Add(time.Hour)}))
	assert.Equal(t, 87*time.Second, defaultStep(source.TimeRange{From: from, To: from.Add(24 * time.Hour)}))
}
