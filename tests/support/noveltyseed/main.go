// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Command noveltyseed sends recorded profiles of internal/testdata/novelty to
// a store for the novelty browser test: -profiles stable profiles of the
// demo service's handlers one minute apart, ending -ago before now, then the
// logindex batch job one minute later (a different program: novel), all as
// app -app. Each profile is re-timed (its samples untouched), since a store
// files a pprof under its own time.
package main

import (
	"bytes"
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
	dir := flag.String("dir", "internal/testdata/novelty", "fixtures folder")
	flag.Parse()
	if err := run(*store, *app, *dir, *n, *ago); err != nil {
		fmt.Fprintln(os.Stderr, "noveltyseed:", err)
		os.Exit(1)
	}
}

func run(store, app, dir string, n int, ago time.Duration) error {
	if store == "" {
		return fmt.Errorf("-store is required")
	}
	last := time.Now().Add(-ago).Truncate(time.Second)
	files := make([]string, 0, n+1)
	for i := range n {
		files = append(files, fmt.Sprintf("stable/rideshare-%02d.pb.gz", i))
	}
	files = append(files, "changed/logindex-in-rideshare.pb.gz")
	for i, f := range files {
		at := last.Add(time.Duration(i-n) * time.Minute)
		if err := send(store, app, filepath.Join(dir, f), at); err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
	}
	fmt.Println(last.UnixMilli())
	return nil
}

func send(store, app, file string, at time.Time) error {
	b, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	p, err := profile.ParseData(b)
	if err != nil {
		return err
	}
	p.TimeNanos = at.UnixNano()
	var buf bytes.Buffer
	if err := p.Write(&buf); err != nil {
		return err
	}
	resp, err := http.Post(store+"/ingest?format=pprof&name="+url.QueryEscape(app), "application/octet-stream", &buf)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("ingest: HTTP %d", resp.StatusCode)
	}
	return nil
}
