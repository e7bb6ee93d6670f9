// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Command noveltyseed sends recorded profiles of internal/fixtures/novelty to
// a store for the novelty browser test: -profiles stable profiles of the
// demo service's handlers one minute apart, ending -ago before now, then the
// logindex batch job one minute later (a different program: novel), all as
// app -app. Each profile is re-timed (its samples untouched), since a store
// files a pprof under its own time.
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
	"time"

	"github.com/google/pprof/profile"
)

func main() {
	store := flag.String("store", "", "store base URL")
	app := flag.String("app", `novelty{pod="b"}`, "application name with labels")
	n := flag.Int("profiles", 8, "stable profiles before the novel one")
	ago := flag.Duration("ago", 5*time.Minute, "how long before now the novel profile is")
	dir := flag.String("dir", "internal/fixtures/novelty", "fixtures folder")
	asJSON := flag.Bool("json", false, "print the sent profiles' times and CPU totals (google/pprof's profile package) as JSON, not just the novel profile's time")
	flag.Parse()
	if err := run(*store, *app, *dir, *n, *ago, *asJSON); err != nil {
		fmt.Fprintln(os.Stderr, "noveltyseed:", err)
		os.Exit(1)
	}
}

// sent is what -json prints: the novel profile's time and every sent profile's time (epoch
// ms) and CPU total (the sum of its cpu samples, as pprof -top's total).
type sent struct {
	NovelMs  int64       `json:"novelMs"`
	Profiles []sentTotal `json:"profiles"`
}

type sentTotal struct {
	TimeMs int64 `json:"timeMs"`
	Total  int64 `json:"total"`
}

func run(store, app, dir string, n int, ago time.Duration, asJSON bool) error {
	if store == "" {
		return fmt.Errorf("-store is required")
	}
	last := time.Now().Add(-ago).Truncate(time.Second)
	files := make([]string, 0, n+1)
	for i := range n {
		files = append(files, fmt.Sprintf("stable/rideshare-%02d.pb.gz", i))
	}
	files = append(files, "changed/logindex-in-rideshare.pb.gz")
	out := sent{NovelMs: last.UnixMilli()}
	for i, f := range files {
		at := last.Add(time.Duration(i-n) * time.Minute)
		total, err := send(store, app, filepath.Join(dir, f), at)
		if err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
		out.Profiles = append(out.Profiles, sentTotal{TimeMs: at.UnixMilli(), Total: total})
	}
	if asJSON {
		return json.NewEncoder(os.Stdout).Encode(out)
	}
	fmt.Println(last.UnixMilli())
	return nil
}

// send pushes file as taken at at, and returns its CPU total.
func send(store, app, file string, at time.Time) (int64, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return 0, err
	}
	p, err := profile.ParseData(b)
	if err != nil {
		return 0, err
	}
	cpu := -1
	for k, st := range p.SampleType {
		if st.Type == "cpu" {
			cpu = k
		}
	}
	if cpu < 0 {
		return 0, fmt.Errorf("no cpu sample type")
	}
	var total int64
	for _, s := range p.Sample {
		total += s.Value[cpu]
	}
	p.TimeNanos = at.UnixNano()
	var buf bytes.Buffer
	if err := p.Write(&buf); err != nil {
		return 0, err
	}
	resp, err := http.Post(store+"/ingest?format=pprof&name="+url.QueryEscape(app), "application/octet-stream", &buf)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("ingest: HTTP %d", resp.StatusCode)
	}
	return total, nil
}
