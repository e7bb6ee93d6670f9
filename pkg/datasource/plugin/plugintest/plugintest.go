// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Package plugintest starts the embedded store for the plugin's and the
// playground's tests, gives them recorded real profiles to send it, and
// google/pprof's numbers for those profiles to compare the answers with.
package plugintest

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"github.com/google/pprof/profile"

	"github.com/emberscope/emberscope/internal/fixtures"
	"github.com/emberscope/emberscope/internal/pproforacle"
	"github.com/emberscope/emberscope/pkg/store"
)

// Store starts the embedded store in a temporary directory behind an
// httptest server and returns its URL; both stop when the test ends.
func Store(t testing.TB) string {
	t.Helper()
	st, err := store.Open(store.Options{Dir: t.TempDir(), NoIngestWindow: true, NoRetention: true})
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	srv := httptest.NewServer(st.Handler())
	t.Cleanup(func() {
		srv.Close()
		_ = st.Close()
	})
	return srv.URL
}

// Ingest sends a pprof profile to the store's /ingest under app name name,
// e.g. "shop{env=\"test\"}".
func Ingest(t testing.TB, storeURL, name string, pprofBytes []byte) {
	t.Helper()
	u := storeURL + "/ingest?format=pprof&name=" + url.QueryEscape(name)
	resp, err := http.Post(u, "application/octet-stream", bytes.NewReader(pprofBytes))
	if err != nil {
		t.Fatalf("ingest: %v", err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("ingest %s: HTTP %d: %s", name, resp.StatusCode, body)
	}
}

// The recorded profiles (internal/fixtures/profiles, made by
// internal/fixtures/cmd/record) the plugin's tests send the store.
const (
	// CPUFile is a shop's CPU profile: main.burnCheckout (JSON encoding,
	// sha256) under pprof label route=/checkout, main.burnSearch (regexp)
	// under route=/search, main.burnUnlabelled (flate) without the label.
	CPUFile = "routes-1.cpu.pb.gz"
	// SecondCPUFile is another recording of the same code.
	SecondCPUFile = "routes-2.cpu.pb.gz"
	// HeapFile is a heap profile with main.allocLarge's 4 MiB in use.
	HeapFile = "heap-1.pb.gz"
)

// Routes are the values of the route label in CPUFile; a share of the
// samples has no route label.
var Routes = []string{"/checkout", "/search"}

// CPUProfile returns CPUFile, filed at the current time (its time_nanos set
// to now, nothing else changed) so that queries of the last hour find it.
func CPUProfile(t testing.TB) []byte {
	t.Helper()
	return Now(t, fixtures.Profile(t, CPUFile))
}

// SecondCPUProfile returns SecondCPUFile, filed at the current time.
func SecondCPUProfile(t testing.TB) []byte {
	t.Helper()
	return Now(t, fixtures.Profile(t, SecondCPUFile))
}

// HeapProfile returns HeapFile, filed at the current time.
func HeapProfile(t testing.TB) []byte {
	t.Helper()
	return Now(t, fixtures.Profile(t, HeapFile))
}

// Now returns the profile with its time_nanos set to the current time.
func Now(t testing.TB, b []byte) []byte {
	t.Helper()
	p := Parse(t, b)
	p.TimeNanos = time.Now().UnixNano()
	var buf bytes.Buffer
	if err := p.Write(&buf); err != nil {
		t.Fatalf("write profile: %v", err)
	}
	return buf.Bytes()
}

// Pprof is the oracle: google/pprof's report (go tool pprof -top, see
// internal/pproforacle) on a recorded profile file of internal/fixtures/profiles,
// for one sample type, optionally restricted to one value of one label
// (labels = key, value; value "" for the samples without the label).
func Pprof(t testing.TB, file, sampleType string, labels ...string) pproforacle.Report {
	t.Helper()
	o := pproforacle.Options{SampleType: sampleType}
	if len(labels) == 2 {
		o.Labels = map[string]string{labels[0]: labels[1]}
	}
	return pproforacle.Top(t, fixtures.ProfilePath(t, file), o)
}

// CPUByRoute is google/pprof's cpu total of CPUFile per route ("" for the
// samples without the label).
func CPUByRoute(t testing.TB) map[string]int64 {
	t.Helper()
	out := map[string]int64{}
	for _, r := range append([]string{""}, Routes...) {
		out[r] = Pprof(t, CPUFile, "cpu", "route", r).Total
	}
	return out
}

// Parse parses a pprof profile.
func Parse(t testing.TB, b []byte) *profile.Profile {
	t.Helper()
	p, err := profile.ParseData(b)
	if err != nil {
		t.Fatalf("parse profile: %v", err)
	}
	return p
}

// SampleIndex returns the index of a sample type, failing the test when absent.
func SampleIndex(t testing.TB, p *profile.Profile, typ string) int {
	t.Helper()
	for i, st := range p.SampleType {
		if st.Type == typ {
			return i
		}
	}
	t.Fatalf("profile has no sample type %q", typ)
	return -1
}

// FuncName is the full name pprof gives a function of the recorded profiles.
func FuncName(short string) string { return "main." + short }
