package flametest

import (
	"bytes"
	"context"
	"runtime/pprof"
	"testing"
	"time"

	"github.com/google/pprof/profile"
)

// CPUProfile records a real CPU profile of this process for about d while
// burning CPU in distinct named functions, each for a quarter of d: burnParse,
// burnHash and burnSort under pprof labels {category="parse"|"hash"|"sort"},
// and recurse (12 calls deep, then burnHash) without labels. At the default
// 100 Hz, d of a second or more gives every function samples even on a busy
// machine. It fails the test when another CPU profile is already running.
func CPUProfile(tb testing.TB, d time.Duration) *profile.Profile {
	tb.Helper()
	var buf bytes.Buffer
	if err := pprof.StartCPUProfile(&buf); err != nil {
		tb.Fatalf("flametest: start CPU profile: %v", err)
	}
	var sink uint64
	phase := func(labels []string, burn func() uint64) {
		deadline := time.Now().Add(d / 4)
		run := func(context.Context) {
			for time.Now().Before(deadline) {
				sink += burn()
			}
		}
		if labels == nil {
			run(context.Background())
			return
		}
		pprof.Do(context.Background(), pprof.Labels(labels...), run)
	}
	phase([]string{"category", "parse"}, func() uint64 { return burnParse(20000) })
	phase([]string{"category", "hash"}, func() uint64 { return burnHash(40000) })
	phase([]string{"category", "sort"}, func() uint64 { return burnSort(300) })
	phase(nil, func() uint64 { return recurse(12) })
	pprof.StopCPUProfile()
	if sink == 42 {
		tb.Log("unlikely") // keeps the work observable
	}
	p, err := profile.Parse(&buf)
	if err != nil {
		tb.Fatalf("flametest: parse CPU profile: %v", err)
	}
	return p
}

//go:noinline
func burnParse(n int) uint64 {
	var acc uint64
	for i := 0; i < n; i++ {
		acc = acc*31 + uint64(i%10+'0')
	}
	return acc
}

//go:noinline
func burnHash(n int) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < n; i++ {
		h ^= uint64(i)
		h *= 1099511628211
	}
	return h
}

//go:noinline
func burnSort(n int) uint64 {
	xs := make([]uint64, n)
	for i := range xs {
		xs[i] = uint64((i * 7919) % n)
	}
	for i := 1; i < len(xs); i++ { // insertion sort: deliberately slow
		for j := i; j > 0 && xs[j] < xs[j-1]; j-- {
			xs[j], xs[j-1] = xs[j-1], xs[j]
		}
	}
	return xs[0]
}

//go:noinline
func recurse(depth int) uint64 {
	if depth == 0 {
		return burnHash(3000)
	}
	return recurse(depth-1) + 1
}
