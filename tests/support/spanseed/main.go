// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Command spanseed sends the checked-in span-labelled CPU profiles of the
// traced demo service (internal/fixtures/profiles/spans, made by
// internal/fixtures/cmd/record-spans) to a store for the traces browser test,
// -gap apart and the last -gap before now, as service -app. Each profile is
// re-timed (its samples untouched), since a store files a pprof under its
// own time. It prints what the test expects, computed here with
// google/pprof's profile package from the files, not by any emberscope
// code: each profile's time and CPU total, and the span of most CPU with
// its total (the sum of the samples labelled with its span_id).
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/google/pprof/profile"
)

// Expected is what the test reads from stdout.
type Expected struct {
	Profiles []ProfileTotal `json:"profiles"`
	Span     SpanTotal      `json:"span"`
	// Spans is every span's total over the sent profiles (pprof's -tagfocus span_id=<id>).
	Spans map[string]int64 `json:"spans"`
}

// ProfileTotal is one sent profile: its time in epoch ms and its CPU total in ns.
type ProfileTotal struct {
	TimeMs int64 `json:"timeMs"`
	Total  int64 `json:"total"`
}

// SpanTotal is one span's id and the CPU of its samples in ns.
type SpanTotal struct {
	ID    string `json:"id"`
	Total int64  `json:"total"`
}

func main() {
	store := flag.String("store", "", "store base URL")
	app := flag.String("app", "traced-demo", "application name")
	gap := flag.Duration("gap", 50*time.Second, "time between the profiles, and from the last one to now")
	dir := flag.String("dir", "internal/fixtures/profiles/spans", "fixtures folder")
	flag.Parse()
	if err := run(*store, *app, *gap, *dir); err != nil {
		fmt.Fprintln(os.Stderr, "spanseed:", err)
		os.Exit(1)
	}
}

func run(store, app string, gap time.Duration, dir string) error {
	if store == "" {
		return fmt.Errorf("-store is required")
	}
	files, err := filepath.Glob(filepath.Join(dir, "cpu-*.pb.gz"))
	if err != nil || len(files) == 0 {
		return fmt.Errorf("no profiles in %s (%v)", dir, err)
	}
	sort.Strings(files)
	now := time.Now().Truncate(time.Millisecond)
	var exp Expected
	spans := map[string]int64{}
	for i, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		p, err := profile.ParseData(b)
		if err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
		at := now.Add(-time.Duration(len(files)-i) * gap)
		p.TimeNanos = at.UnixNano()
		cpu := -1
		for k, st := range p.SampleType {
			if st.Type == "cpu" {
				cpu = k
			}
		}
		if cpu < 0 {
			return fmt.Errorf("%s has no cpu sample type", f)
		}
		var total int64
		for _, s := range p.Sample {
			total += s.Value[cpu]
			if ids := s.Label["span_id"]; len(ids) == 1 {
				spans[ids[0]] += s.Value[cpu]
			}
		}
		exp.Profiles = append(exp.Profiles, ProfileTotal{TimeMs: at.UnixMilli(), Total: total})
		var buf bytes.Buffer
		if err := p.Write(&buf); err != nil {
			return err
		}
		resp, err := http.Post(store+"/ingest?format=pprof&name="+url.QueryEscape(app), "application/octet-stream", &buf)
		if err != nil {
			return err
		}
		_ = resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("ingest %s: HTTP %d", f, resp.StatusCode)
		}
	}
	for id, v := range spans {
		if v > exp.Span.Total || (v == exp.Span.Total && id < exp.Span.ID) {
			exp.Span = SpanTotal{ID: id, Total: v}
		}
	}
	exp.Spans = spans
	if exp.Span.ID == "" {
		return fmt.Errorf("no span_id labels in %s", dir)
	}
	return json.NewEncoder(os.Stdout).Encode(exp)
}
