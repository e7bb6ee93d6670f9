// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Command spans records consecutive CPU profiles of a traced Go service:
// each request is a root span of the OpenTelemetry SDK (every trace
// sampled, spans kept in memory, no exporter), profiled through
// otel-profiling-go, so the samples taken inside a request carry span_id,
// trace_id and span_name labels, as Grafana's traces-to-profiles needs them.
// The service runs in this process on loopback with its own load: workers
// that GET /ride and /price, whose handlers sort, hash and split strings.
// One runtime/pprof CPU profile follows another with no gap, each written as
// it ends.
//
//	go run ./internal/testdata/spans -n 60 -d 1s -out internal/testdata/profiles/spans-cpu
//
// The files are named cpu-000.pb.gz, cpu-001.pb.gz, ... in recording order.
// Run it once and check the files in; benchmarks read them.
package main

import (
	"context"
	"crypto/sha256"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strings"
	"sync"
	"time"

	otelpyroscope "github.com/grafana/otel-profiling-go"
	"go.opentelemetry.io/otel/propagation"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
)

func main() {
	out := flag.String("out", "internal/testdata/profiles/spans-cpu", "folder the profiles are written to")
	n := flag.Int("n", 60, "number of consecutive profiles")
	d := flag.Duration("d", time.Second, "duration of each profile")
	workers := flag.Int("workers", 2, "clients sending requests")
	flag.Parse()
	if err := record(*out, *n, *d, *workers); err != nil {
		log.Fatal(err)
	}
}

func record(out string, n int, d time.Duration, workers int) error {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	rec := tracetest.NewSpanRecorder()
	sdk := sdktrace.NewTracerProvider(sdktrace.WithSampler(sdktrace.AlwaysSample()), sdktrace.WithSpanProcessor(rec))
	defer func() { _ = sdk.Shutdown(context.Background()) }()
	tp := otelpyroscope.NewTracerProvider(sdk)
	tracer := tp.Tracer("spans-recorder")

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: handler(tracer), ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()

	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			load(ctx, "http://"+ln.Addr().String(), uint64(w))
		}()
	}
	defer func() { cancel(); wg.Wait() }()

	for i := range n {
		path := filepath.Join(out, fmt.Sprintf("cpu-%03d.pb.gz", i))
		f, err := os.Create(path)
		if err != nil {
			return err
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			f.Close()
			return err
		}
		time.Sleep(d)
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			return err
		}
	}
	log.Printf("recorded %d profiles of %v, %d spans ended", n, d, len(rec.Ended()))
	return nil
}

// handler serves /ride and /price; each request is a root span.
func handler(tracer trace.Tracer) http.Handler {
	prop := propagation.TraceContext{}
	mux := http.NewServeMux()
	serve := func(name string, work func(r *rand.Rand)) {
		mux.HandleFunc(name, func(w http.ResponseWriter, req *http.Request) {
			ctx := prop.Extract(req.Context(), propagation.HeaderCarrier(req.Header))
			ctx, span := tracer.Start(ctx, "GET "+name, trace.WithSpanKind(trace.SpanKindServer))
			defer span.End()
			_ = ctx
			seed := span.SpanContext().SpanID()
			r := rand.New(rand.NewPCG(uint64(seed[0])<<8|uint64(seed[1]), uint64(seed[7])))
			work(r)
			_, _ = io.WriteString(w, "ok")
		})
	}
	serve("/ride", func(r *rand.Rand) {
		sortWork(r, 2000+r.IntN(20000))
		hashWork(100 + r.IntN(2000))
	})
	serve("/price", func(r *rand.Rand) {
		stringWork(r, 50+r.IntN(400))
		hashWork(50 + r.IntN(500))
	})
	return mux
}

func sortWork(r *rand.Rand, n int) {
	xs := make([]int, n)
	for i := range xs {
		xs[i] = r.IntN(1 << 20)
	}
	slices.Sort(xs)
}

func hashWork(n int) {
	var sum [32]byte
	for range n {
		sum = sha256.Sum256(sum[:])
	}
}

func stringWork(r *rand.Rand, n int) {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "fare-%d-%d,", i, r.IntN(1000))
	}
	_ = strings.Split(b.String(), ",")
}

// load sends requests until ctx is done, alternating the routes.
func load(ctx context.Context, base string, seed uint64) {
	r := rand.New(rand.NewPCG(seed, 7))
	client := &http.Client{Timeout: 10 * time.Second}
	for ctx.Err() == nil {
		route := "/ride"
		if r.IntN(3) == 0 {
			route = "/price"
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+route, nil)
		if err != nil {
			return
		}
		resp, err := client.Do(req)
		if err != nil {
			if errors.Is(ctx.Err(), context.Canceled) {
				return
			}
			continue
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		_ = resp.Body.Close()
	}
}
