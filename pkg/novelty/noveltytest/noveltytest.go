// Package noveltytest records real CPU profiles of two distinct workloads
// with runtime/pprof, for the tests of novelty scoring: a steady "serve"
// workload and a different "batch" one, each burning CPU in its own named
// functions.
package noveltytest

import (
	"bytes"
	"runtime/pprof"
	"testing"
	"time"

	"github.com/google/pprof/profile"
)

// Workload is a named way to burn CPU.
type Workload struct {
	Name string
	run  func(deadline time.Time)
}

// Serve spends its time in serveDecode and serveRender, about 1:1.
var Serve = Workload{Name: "serve", run: func(deadline time.Time) {
	for time.Now().Before(deadline) {
		Sink += serveDecode(30000)
		Sink += serveRender(30000)
	}
}}

// Batch spends its time in batchCompress and batchChecksum, functions Serve
// never calls.
var Batch = Workload{Name: "batch", run: func(deadline time.Time) {
	for time.Now().Before(deadline) {
		Sink += batchCompress(30000)
		Sink += batchChecksum(30000)
	}
}}

// Sink keeps the workloads' results observable, so no work is optimised away.
var Sink uint64

//go:noinline
func serveDecode(n int) uint64 {
	var acc uint64
	for i := 0; i < n; i++ {
		acc = acc*31 + uint64(i%10+'0')
	}
	return acc
}

//go:noinline
func serveRender(n int) uint64 {
	var acc uint64 = 7
	for i := 0; i < n; i++ {
		acc ^= acc<<13 | uint64(i)
	}
	return acc
}

//go:noinline
func batchCompress(n int) uint64 {
	var acc uint64 = 1
	for i := 1; i < n; i++ {
		acc = acc*2654435761 + uint64(i)>>3
	}
	return acc
}

//go:noinline
func batchChecksum(n int) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < n; i++ {
		h ^= uint64(i & 0xff)
		h *= 1099511628211
	}
	return h
}

// Record runs w for d under the CPU profiler and returns the profile as
// runtime/pprof writes it (gzipped), with its time set to at when at is not
// zero. It fails the test when another CPU profile is running.
func Record(tb testing.TB, w Workload, d time.Duration, at time.Time) []byte {
	tb.Helper()
	var buf bytes.Buffer
	if err := pprof.StartCPUProfile(&buf); err != nil {
		tb.Fatalf("noveltytest: start CPU profile: %v", err)
	}
	w.run(time.Now().Add(d))
	pprof.StopCPUProfile()
	if at.IsZero() {
		return buf.Bytes()
	}
	return At(tb, buf.Bytes(), at)
}

// At returns a copy of a pprof profile (gzipped) taken at at: the time a
// profile server files it under.
func At(tb testing.TB, pprofBytes []byte, at time.Time) []byte {
	tb.Helper()
	p, err := profile.ParseData(pprofBytes)
	if err != nil {
		tb.Fatalf("noveltytest: parse profile: %v", err)
	}
	p.TimeNanos = at.UnixNano()
	var out bytes.Buffer
	if err := p.Write(&out); err != nil {
		tb.Fatalf("noveltytest: write profile: %v", err)
	}
	return out.Bytes()
}

// FuncName is the full name pprof gives a function of this package.
func FuncName(short string) string {
	return "github.com/emberscope/emberscope/pkg/novelty/noveltytest." + short
}
