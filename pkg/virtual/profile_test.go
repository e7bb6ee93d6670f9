package virtual_test

import (
	"bytes"
	"context"
	"reflect"
	"runtime"
	"runtime/pprof"
	"sync"
	"testing"
	"time"

	"github.com/google/pprof/profile"
)

// workload is CPU work done in its own function under pprof labels.
type workload struct {
	labels []string // name, value pairs
	burn   func(time.Duration) uint64
}

// workloads cover: a value split by "::", values on two labels, a value
// without the second label, the second label without the first, and no labels.
var workloads = []workload{
	{[]string{"category", "observability :: metrics", "route", "/metrics"}, burnMetrics},
	{[]string{"category", "observability :: logs", "route", "/logs"}, burnLogs},
	{[]string{"category", "storage", "route", "/write"}, burnStorage},
	{[]string{"category", "api", "route", "/read"}, burnAPIRead},
	{[]string{"category", "api"}, burnAPIInternal},
	{[]string{"route", "/bg"}, burnBackground},
	{nil, burnUnlabelled},
}

var (
	cpuOnce    sync.Once
	cpuProfile *profile.Profile
	cpuErr     string
)

// realCPUProfile records, once per test binary, a CPU profile of the
// workloads with enough samples for every label set.
func realCPUProfile(tb testing.TB) *profile.Profile {
	tb.Helper()
	cpuOnce.Do(func() { cpuProfile, cpuErr = recordProfile() })
	if cpuErr != "" {
		tb.Skip(cpuErr)
	}
	return cpuProfile
}

func recordProfile() (*profile.Profile, string) {
	const minSamples = 3
	slice := 10 * time.Millisecond
	for attempt := 0; attempt < 6; attempt++ {
		var buf bytes.Buffer
		if err := pprof.StartCPUProfile(&buf); err != nil {
			return nil, "cannot record a CPU profile (is another running, e.g. -cpuprofile?): " + err.Error()
		}
		var sink uint64
		for range 20 { // interleave so that load elsewhere hits every workload alike
			for _, w := range workloads {
				if w.labels == nil {
					sink += w.burn(slice)
					continue
				}
				pprof.Do(context.Background(), pprof.Labels(w.labels...), func(context.Context) { sink += w.burn(slice) })
			}
		}
		pprof.StopCPUProfile()
		p, err := profile.Parse(&buf)
		if err != nil {
			return nil, "cannot parse the CPU profile: " + err.Error()
		}
		if sink != 1 && everyWorkloadSampled(p, minSamples) {
			return p, ""
		}
		slice *= 2
	}
	return nil, "the machine is too busy: some workload got fewer than 3 CPU samples"
}

// everyWorkloadSampled reports whether each workload's function appears in
// at least min samples.
func everyWorkloadSampled(p *profile.Profile, min int) bool {
	for _, w := range workloads {
		name := funcName(w.burn)
		n := 0
		for _, s := range p.Sample {
			if inStack(s, name) {
				n++
			}
		}
		if n < min {
			return false
		}
	}
	return true
}

// spin burns CPU for about d; seed keeps each caller's loop distinct.
func spin(d time.Duration, seed uint64) uint64 {
	acc := seed
	for end := time.Now().Add(d); time.Now().Before(end); {
		for i := 0; i < 2000; i++ {
			acc = acc*6364136223846793005 + 1442695040888963407
		}
	}
	return acc
}

//go:noinline
func burnMetrics(d time.Duration) uint64 { return spin(d, 1) }

//go:noinline
func burnLogs(d time.Duration) uint64 { return spin(d, 2) }

//go:noinline
func burnStorage(d time.Duration) uint64 { return spin(d, 3) }

//go:noinline
func burnAPIRead(d time.Duration) uint64 { return spin(d, 4) }

//go:noinline
func burnAPIInternal(d time.Duration) uint64 { return spin(d, 5) }

//go:noinline
func burnBackground(d time.Duration) uint64 { return spin(d, 6) }

//go:noinline
func burnUnlabelled(d time.Duration) uint64 { return spin(d, 7) }

// funcName is the full name of f as pprof records it.
func funcName(f func(time.Duration) uint64) string {
	return runtime.FuncForPC(reflect.ValueOf(f).Pointer()).Name()
}
