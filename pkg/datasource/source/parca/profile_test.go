// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package parca

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"runtime/pprof"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/pprof/profile"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/pkg/datasource/source"
)

//go:noinline
func parkInAlpha(ready *sync.WaitGroup, release <-chan struct{}) {
	ready.Done()
	<-release
}

//go:noinline
func parkInBeta(ready *sync.WaitGroup, release <-chan struct{}) {
	ready.Done()
	<-release
}

// goroutineProfile writes a real goroutine profile (gzipped pprof) with
// three goroutines parked in parkInAlpha and two in parkInBeta, each under
// a pprof label category=<alpha|beta>.
func goroutineProfile(t *testing.T) []byte {
	t.Helper()
	release := make(chan struct{})
	var ready, done sync.WaitGroup
	start := func(n int, category string, park func(*sync.WaitGroup, <-chan struct{})) {
		for range n {
			ready.Add(1)
			done.Add(1)
			go pprof.Do(context.Background(), pprof.Labels("category", category), func(context.Context) {
				defer done.Done()
				park(&ready, release)
			})
		}
	}
	start(3, "alpha", parkInAlpha)
	start(2, "beta", parkInBeta)
	ready.Wait()
	defer func() { close(release); done.Wait() }()
	var buf bytes.Buffer
	require.NoError(t, pprof.Lookup("goroutine").WriteTo(&buf, 0))
	return buf.Bytes()
}

// MergeProfile hands back Parca's PPROF answer as parsed pprof; here the
// answer carries a real goroutine profile made in the test.
func TestMergeProfileParsesThePprofAnswer(t *testing.T) {
	raw := goroutineProfile(t)
	var gotQuery string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotQuery = r.URL.Query().Get("merge.query")
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"pprof": raw, "total": "0"})
	}))
	t.Cleanup(srv.Close)
	c, err := New(Options{URL: srv.URL, HTTPClient: srv.Client()})
	require.NoError(t, err)

	from := time.Date(2026, 11, 29, 8, 0, 0, 0, time.UTC)
	p, err := c.MergeProfile(context.Background(), source.StacksRequest{Selection: source.Selection{
		ProfileTypeID: "goroutine:goroutine:count:goroutine:count:delta",
		LabelSelector: `{job="x"}`,
		Range:         source.TimeRange{From: from, To: from.Add(time.Hour)},
	}})
	require.NoError(t, err)
	assert.Equal(t, `goroutine:goroutine:count:goroutine:count:delta{job="x"}`, gotQuery)

	byCategory := map[string]int64{}
	for _, s := range p.Sample {
		if leaf := leafFunction(s); strings.HasSuffix(leaf, ".parkInAlpha") || strings.HasSuffix(leaf, ".parkInBeta") {
			byCategory[s.Label["category"][0]+" "+leaf[strings.LastIndex(leaf, ".")+1:]] += s.Value[0]
		}
	}
	assert.Equal(t, map[string]int64{"alpha parkInAlpha": 3, "beta parkInBeta": 2}, byCategory)
}

// leafFunction names the first function of a sample's stack that is ours,
// skipping the runtime frames a parked goroutine sits in.
func leafFunction(s *profile.Sample) string {
	for _, loc := range s.Location {
		for _, ln := range loc.Line {
			if ln.Function != nil && strings.Contains(ln.Function.Name, "parca.park") {
				return ln.Function.Name
			}
		}
	}
	return ""
}

// An answer without a pprof (no data) is a profile of the asked type
// without samples.
func TestMergeProfileWithoutData(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"pprof":"","total":"0","filtered":"0"}`))
	}))
	t.Cleanup(srv.Close)
	c, err := New(Options{URL: srv.URL})
	require.NoError(t, err)
	from := time.Date(2026, 11, 29, 8, 0, 0, 0, time.UTC)
	p, err := c.MergeProfile(context.Background(), source.StacksRequest{Selection: source.Selection{
		ProfileTypeID: "memory:alloc_space:bytes:space:bytes",
		Range:         source.TimeRange{From: from, To: from.Add(time.Hour)},
	}})
	require.NoError(t, err)
	assert.Empty(t, p.Sample)
	assert.Equal(t, []*profile.ValueType{{Type: "alloc_space", Unit: "bytes"}}, p.SampleType)
	assert.Equal(t, &profile.ValueType{Type: "space", Unit: "bytes"}, p.PeriodType)
}
