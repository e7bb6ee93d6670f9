// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Command record-spans records span-labelled CPU profiles of a real traced
// Go service: the demo service (pkg/demo), whose every request runs in an
// OpenTelemetry SDK server span wrapped by otel-profiling-go, under its
// k6-style load, so that each sample carries the span_id, span_name and
// trace_id labels of the request it served, as a span-profiled service's
// profiles do. The service and the load generator run in this process on
// loopback; one runtime/pprof CPU profile follows another with no gap.
//
//	go run ./internal/testdata/record-spans -n 3 -d 3s -out internal/testdata/profiles/spans
//
// The files are named cpu-0.pb.gz, cpu-1.pb.gz, ... in recording order; the
// recent spans the service ended are written beside them (spans.json) so a
// test can tell a recorded span id from a made-up one. Run it once and
// check the files in; tests read them and never burn CPU to make profiles.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime/pprof"
	"time"

	"github.com/emberscope/emberscope/pkg/demo"
)

func main() {
	out := flag.String("out", "internal/testdata/profiles/spans", "folder the profiles are written to")
	n := flag.Int("n", 3, "number of consecutive profiles")
	d := flag.Duration("d", 3*time.Second, "duration of each profile")
	workers := flag.Int("workers", 2, "virtual users of the load generator")
	pause := flag.Duration("pause", 20*time.Millisecond, "pause of each virtual user between requests")
	flag.Parse()
	if err := record(*out, *n, *d, *workers, *pause); err != nil {
		log.Fatal(err)
	}
}

func record(out string, n int, d time.Duration, workers int, pause time.Duration) error {
	if n <= 0 || d <= 0 {
		return fmt.Errorf("record-spans: -n and -d must be positive, got %d and %s", n, d)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	svc := demo.NewService()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: svc.Handler(), ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(lis) }()
	defer srv.Close()

	load, err := demo.NewLoadGenerator(demo.LoadOptions{
		BaseURL: "http://" + lis.Addr().String(),
		Nodes:   svc.Nodes(),
		Workers: workers,
		Pause:   pause,
	})
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { load.Run(ctx); close(done) }()
	time.Sleep(time.Second)

	for i := range n {
		path := filepath.Join(out, fmt.Sprintf("cpu-%d.pb.gz", i))
		if err := recordOne(path, d); err != nil {
			cancel()
			<-done
			return err
		}
	}
	cancel()
	<-done
	requests, failures, lastErr := load.Stats()
	if failures > 0 {
		return fmt.Errorf("record-spans: %d of %d requests failed, last: %s", failures, requests, lastErr)
	}
	b, err := json.MarshalIndent(svc.RecentSpans(), "", " ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(out, "spans.json"), append(b, '\n'), 0o644); err != nil {
		return err
	}
	log.Printf("record-spans: %d profiles of %s in %s (%d requests)", n, d, out, requests)
	return nil
}

// recordOne writes one CPU profile of duration d to path.
func recordOne(path string, d time.Duration) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return fmt.Errorf("record-spans: start CPU profile %s: %w", path, err)
	}
	time.Sleep(d)
	pprof.StopCPUProfile()
	return f.Close()
}
