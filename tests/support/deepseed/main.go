// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Command deepseed sends the checked-in deep allocation profile
// (internal/fixtures/profiles/deep.alloc.pb.gz, 131,106 call tree nodes) to a
// store as service -app, for the focus browser test. The store takes at most
// 16,000 samples in one profile, so it goes in parts of 15,000 samples, each
// filed a minute before the one after it (the last one now): their merge is
// the whole profile.
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

const partSamples = 15000

func main() {
	store := flag.String("store", "", "the store's base URL")
	app := flag.String("app", "e2e-deep", "service_name of the profiles")
	repo := flag.String("repo", ".", "the repository root")
	flag.Parse()
	if err := run(*store, *app, *repo); err != nil {
		fmt.Fprintln(os.Stderr, "deepseed:", err)
		os.Exit(1)
	}
}

func run(store, app, repo string) error {
	f, err := os.Open(filepath.Join(repo, "internal", "fixtures", "profiles", "deep.alloc.pb.gz"))
	if err != nil {
		return err
	}
	defer f.Close()
	p, err := profile.Parse(f)
	if err != nil {
		return fmt.Errorf("deep.alloc.pb.gz: %w", err)
	}
	now := time.Now()
	name := url.QueryEscape(fmt.Sprintf("deep{service_name=%s}", app))
	for i := 0; i*partSamples < len(p.Sample); i++ {
		part := p.Copy()
		part.Sample = p.Sample[i*partSamples : min((i+1)*partSamples, len(p.Sample))]
		part.TimeNanos = now.Add(-time.Duration(i) * time.Minute).UnixNano()
		var buf bytes.Buffer
		if err := part.Write(&buf); err != nil {
			return err
		}
		resp, err := http.Post(store+"/ingest?format=pprof&name="+name, "application/octet-stream", &buf)
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("part %d: HTTP %d", i, resp.StatusCode)
		}
	}
	return nil
}
