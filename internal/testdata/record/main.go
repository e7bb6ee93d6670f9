// Command record makes the real profiles the tests read, with runtime/pprof,
// from the Go code in this folder, and writes them to internal/testdata/profiles.
// It is run once by hand (go run ./internal/testdata/record from the
// repository root) and its output is checked in: no test burns CPU to make a
// profile, and a test's numbers do not depend on the machine's load.
//
// Each CPU profile interleaves its workloads in short slices, each under its
// pprof labels, so that load elsewhere on the machine hits them alike; the
// recorder checks every workload got samples and records again, longer, when
// one did not.
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"time"

	"github.com/google/pprof/profile"
)

// Every allocation is sampled, so the heap profiles hold exact sizes. It is
// set before anything else runs, as runtime.MemProfileRate asks.
func init() { runtime.MemProfileRate = 1 }

// workload is CPU work done in its own named function under pprof labels.
type workload struct {
	labels []string // name, value pairs; nil for none
	fn     string   // the function whose samples show the workload ran
	run    func(time.Duration)
}

// cpuProfile describes one CPU profile file.
type cpuProfile struct {
	file      string
	slice     time.Duration // one workload's turn
	rounds    int
	workloads []workload
}

func main() {
	out := flag.String("out", filepath.Join("internal", "testdata", "profiles"), "folder to write the profiles to")
	flag.Parse()
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fail(err)
	}
	// Heap first, while the process has allocated little else.
	for round := 1; round <= 2; round++ {
		allocRound()
		if err := writeHeap(filepath.Join(*out, fmt.Sprintf("heap-%d.pb.gz", round))); err != nil {
			fail(err)
		}
		time.Sleep(10 * time.Millisecond) // distinct time_nanos
	}
	for _, c := range cpuProfiles {
		if err := record(filepath.Join(*out, c.file), c); err != nil {
			fail(err)
		}
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "record:", err)
	os.Exit(1)
}

// writeHeap writes the heap profile as of a fresh garbage collection.
func writeHeap(path string) error {
	runtime.GC()
	var buf bytes.Buffer
	if err := pprof.Lookup("heap").WriteTo(&buf, 0); err != nil {
		return err
	}
	fmt.Printf("%s: %d bytes\n", path, buf.Len())
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

const minSamples = 10

func record(path string, c cpuProfile) error {
	for attempt := 0; attempt < 5; attempt++ {
		var buf bytes.Buffer
		if err := pprof.StartCPUProfile(&buf); err != nil {
			return err
		}
		for range c.rounds {
			for _, w := range c.workloads {
				if w.labels == nil {
					w.run(c.slice)
					continue
				}
				pprof.Do(context.Background(), pprof.Labels(w.labels...), func(context.Context) { w.run(c.slice) })
			}
		}
		pprof.StopCPUProfile()
		p, err := profile.ParseData(buf.Bytes())
		if err != nil {
			return err
		}
		if missing := unsampled(p, c.workloads); missing != "" {
			fmt.Printf("%s: %s has fewer than %d samples, recording longer\n", path, missing, minSamples)
			c.slice *= 2
			continue
		}
		fmt.Printf("%s: %d samples, %d bytes\n", path, len(p.Sample), buf.Len())
		return os.WriteFile(path, buf.Bytes(), 0o644)
	}
	return fmt.Errorf("%s: the machine is too busy to sample every workload", path)
}

// unsampled names a workload whose function is in fewer than minSamples
// samples under its labels, or returns "".
func unsampled(p *profile.Profile, ws []workload) string {
	for _, w := range ws {
		n := int64(0)
		for _, s := range p.Sample {
			if hasLabels(s, w.labels) && inStack(s, "main."+w.fn) {
				n += s.Value[0]
			}
		}
		if n < minSamples {
			return w.fn
		}
	}
	return ""
}

func hasLabels(s *profile.Sample, kv []string) bool {
	if kv == nil {
		return len(s.Label) == 0
	}
	for i := 0; i < len(kv); i += 2 {
		if vs := s.Label[kv[i]]; len(vs) != 1 || vs[0] != kv[i+1] {
			return false
		}
	}
	return len(s.Label) == len(kv)/2
}

func inStack(s *profile.Sample, fn string) bool {
	for _, loc := range s.Location {
		for _, l := range loc.Line {
			if l.Function != nil && l.Function.Name == fn {
				return true
			}
		}
	}
	return false
}
