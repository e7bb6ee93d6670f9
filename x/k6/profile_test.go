package k6

import (
	"bytes"
	"crypto/sha256"
	"runtime/pprof"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
)

// burnRounds is how much work a test handler does: about 0.15 s of CPU time
// (more under the race detector), so at the profiler's 100 Hz a dozen samples
// or more however busy the machine is (the profiler samples CPU time; a
// wall-clock loop gets few samples when other processes take the cores).
const burnRounds = 1_500_000

// burnCPU hashes burnRounds times. Tests look for its frame in the CPU profile.
//
//go:noinline
func burnCPU() [32]byte {
	sum := sha256.Sum256([]byte("k6"))
	for range burnRounds {
		sum = sha256.Sum256(sum[:])
	}
	return sum
}

// captureCPUProfile runs f under the runtime CPU profiler and returns the
// parsed profile. CPU profiling is process-wide, so callers must not run in
// parallel with each other.
func captureCPUProfile(t *testing.T, f func()) *profile.Profile {
	t.Helper()
	var buf bytes.Buffer
	if err := pprof.StartCPUProfile(&buf); err != nil {
		t.Fatalf("start CPU profile: %v", err)
	}
	f()
	pprof.StopCPUProfile()
	p, err := profile.Parse(&buf)
	if err != nil {
		t.Fatalf("parse CPU profile: %v", err)
	}
	return p
}

// burnSamples returns the samples whose stack contains burnCPU.
func burnSamples(p *profile.Profile) []*profile.Sample {
	var out []*profile.Sample
	for _, s := range p.Sample {
	stack:
		for _, loc := range s.Location {
			for _, line := range loc.Line {
				if line.Function != nil && strings.HasSuffix(line.Function.Name, ".burnCPU") {
					out = append(out, s)
					break stack
				}
			}
		}
	}
	return out
}

// requireLabels fails unless there are burnCPU samples and every one of them
// carries exactly the wanted label values (a value of "" means the label must
// be absent).
func requireLabels(t *testing.T, p *profile.Profile, want map[string]string) {
	t.Helper()
	samples := burnSamples(p)
	if len(samples) == 0 {
		t.Fatalf("the CPU profile has no samples in burnCPU (%d samples in all)", len(p.Sample))
	}
	for _, s := range samples {
		for k, v := range want {
			got := strings.Join(s.Label[k], ",")
			if got != v {
				t.Fatalf("a burnCPU sample has label %s=%q, want %q (all labels: %v)", k, got, v, s.Label)
			}
		}
	}
}
