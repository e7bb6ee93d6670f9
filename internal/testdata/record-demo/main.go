// Command record-demo records consecutive CPU profiles of the demo service
// (pkg/demo) under its k6-style load, as a continuous profiler would: one
// runtime/pprof CPU profile after another, with no gap, each written as it
// ends. The service and the load generator run in this process on loopback,
// so the profiles hold the service's route planning, pricing and encoding
// work and the load generator's HTTP client.
//
//	go run ./internal/testdata/record-demo -n 360 -d 1s -out internal/testdata/profiles/demo-cpu
//
// The files are named cpu-000.pb.gz, cpu-001.pb.gz, ... in recording order.
// Run it once and check the files in; tests and benchmarks read them and
// never burn CPU to make profiles.
package main

import (
	"context"
	"errors"
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
	out := flag.String("out", "internal/testdata/profiles/demo-cpu", "folder the profiles are written to")
	n := flag.Int("n", 360, "number of consecutive profiles")
	d := flag.Duration("d", time.Second, "duration of each profile")
	workers := flag.Int("workers", 2, "virtual users of the load generator")
	warmup := flag.Duration("warmup", 2*time.Second, "load before the first profile starts")
	flag.Parse()
	if err := record(*out, *n, *d, *workers, *warmup); err != nil {
		log.Fatal(err)
	}
}

func record(out string, n int, d time.Duration, workers int, warmup time.Duration) error {
	if n <= 0 || d <= 0 {
		return fmt.Errorf("record-demo: -n and -d must be positive, got %d and %s", n, d)
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
	})
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { load.Run(ctx); close(done) }()
	defer func() { cancel(); <-done }()
	time.Sleep(warmup)

	for i := range n {
		path := filepath.Join(out, fmt.Sprintf("cpu-%03d.pb.gz", i))
		if err := recordOne(path, d); err != nil {
			return err
		}
	}
	requests, failures, lastErr := load.Stats()
	if failures > 0 {
		return errors.New("record-demo: " + fmt.Sprint(failures) + " of " + fmt.Sprint(requests) + " requests failed, last: " + lastErr)
	}
	log.Printf("record-demo: %d profiles of %s in %s (%d requests)", n, d, out, requests)
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
		return fmt.Errorf("record-demo: start CPU profile %s: %w", path, err)
	}
	time.Sleep(d)
	pprof.StopCPUProfile()
	return f.Close()
}
