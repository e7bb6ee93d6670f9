// Package pproftest makes real profiles with runtime/pprof for tests: CPU
// burnt in distinct named functions (some under pprof.Do labels) and heap
// allocations from distinct call sites. Profiles are made once per process
// and shared, because only one CPU profile can run at a time.
package pproftest

import (
	"bytes"
	"context"
	"runtime"
	"runtime/pprof"
	"sync"
	"time"

	"github.com/google/pprof/profile"

	"github.com/emberscope/emberscope/pkg/pprofconv"
)

var (
	cpuOnce sync.Once
	cpuData []byte
	cpuErr  error
)

// sink keeps the compiler from optimising burn loops away.
var sink uint64

//go:noinline
func burn(d time.Duration) {
	end := time.Now().Add(d)
	x := uint64(1)
	for time.Now().Before(end) {
		for i := 0; i < 10000; i++ {
			x = x*6364136223846793005 + 1442695040888963407
		}
	}
	sink += x
}

//go:noinline
func burnAlpha() { burn(250 * time.Millisecond) }

//go:noinline
func burnBeta() { burn(150 * time.Millisecond) }

//go:noinline
func burnGamma() { burn(100 * time.Millisecond) }

// CPU returns a gzipped CPU profile: burnAlpha runs under label
// category=alpha, burnBeta under category=beta, burnGamma without labels.
func CPU() ([]byte, error) {
	cpuOnce.Do(func() {
		var buf bytes.Buffer
		if cpuErr = pprof.StartCPUProfile(&buf); cpuErr != nil {
			return
		}
		ctx := context.Background()
		pprof.Do(ctx, pprof.Labels("category", "alpha"), func(context.Context) { burnAlpha() })
		pprof.Do(ctx, pprof.Labels("category", "beta"), func(context.Context) { burnBeta() })
		burnGamma()
		pprof.StopCPUProfile()
		cpuData = buf.Bytes()
	})
	return cpuData, cpuErr
}

var keep [][]byte

//go:noinline
func allocSmall(n int) {
	for i := 0; i < n; i++ {
		keep = append(keep, make([]byte, 512))
	}
}

//go:noinline
func allocLarge(n int) {
	for i := 0; i < n; i++ {
		keep = append(keep, make([]byte, 64<<10))
	}
}

var heapMu sync.Mutex

// Heap allocates with every sample recorded, then returns a gzipped heap
// profile. Each call allocates more, so alloc_* grow between calls.
func Heap(rounds int) ([]byte, error) {
	heapMu.Lock()
	defer heapMu.Unlock()
	old := runtime.MemProfileRate
	runtime.MemProfileRate = 1
	defer func() { runtime.MemProfileRate = old }()
	for i := 0; i < rounds; i++ {
		allocSmall(200)
		allocLarge(20)
	}
	runtime.GC()
	var buf bytes.Buffer
	if err := pprof.Lookup("heap").WriteTo(&buf, 0); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Flat returns the self value per function name of sample type idx, computed
// from the pprof the way `go tool pprof -top` does (the leaf, Location[0].Line[0],
// takes the value) with Pyroscope's naming rules, and the total.
func Flat(p *profile.Profile, idx int) (map[string]int64, int64) {
	flat := make(map[string]int64)
	var total int64
	for _, s := range p.Sample {
		v := s.Value[idx]
		if v == 0 {
			continue
		}
		total += v
		var leaf string
		if len(s.Location) == 0 {
			leaf = "total"
		} else {
			leaf = pprofconv.LocationFrames(nil, s.Location[0])[0]
		}
		flat[leaf] += v
	}
	return flat, total
}

// FlatWhere is Flat restricted to samples whose label key has value (or has
// no such label when value is "").
func FlatWhere(p *profile.Profile, idx int, key, value string) (map[string]int64, int64) {
	q := p.Copy()
	q.Sample = q.Sample[:0]
	for _, s := range p.Sample {
		got := ""
		if vs := s.Label[key]; len(vs) > 0 {
			got = vs[0]
		}
		if got == value {
			q.Sample = append(q.Sample, s)
		}
	}
	return Flat(q, idx)
}
