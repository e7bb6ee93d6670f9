// Package testdata holds the project's test fixtures and finds them from any
// package's tests: recorded exchanges with a real Parca v0.28.0 (parca/) and a
// real Grafana Pyroscope v2.2.1 (pyroscope/), the real pprof files pushed to
// them, and real profiles recorded from the demo workload (profiles/).
//
// Every fixture lives in the repository. A missing one fails the test that
// asked for it: nothing is skipped.
package testdata

import (
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"testing"
)

// Dir is the absolute path of this folder.
func Dir() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		panic("testdata: cannot locate the fixtures folder")
	}
	return filepath.Dir(file)
}

// Path is the absolute path of a fixture, rel being relative to this folder
// (for example "pyroscope/pushed-profiles/labeled.cpu.redated.pb.gz"). It
// fails tb when the fixture does not exist.
func Path(tb testing.TB, rel string) string {
	tb.Helper()
	p := filepath.Join(Dir(), filepath.FromSlash(rel))
	if _, err := os.Stat(p); err != nil {
		tb.Fatalf("fixture %s is missing: %v", rel, err)
	}
	return p
}

// Read returns a fixture's bytes, failing tb when it cannot be read.
func Read(tb testing.TB, rel string) []byte {
	tb.Helper()
	b, err := os.ReadFile(Path(tb, rel))
	if err != nil {
		tb.Fatalf("read fixture %s: %v", rel, err)
	}
	return b
}

// Glob returns the fixtures matching pattern (relative to this folder), sorted,
// failing tb when none match.
func Glob(tb testing.TB, pattern string) []string {
	tb.Helper()
	m, err := filepath.Glob(filepath.Join(Dir(), filepath.FromSlash(pattern)))
	if err != nil {
		tb.Fatalf("fixture pattern %s: %v", pattern, err)
	}
	if len(m) == 0 {
		tb.Fatalf("no fixture matches %s", pattern)
	}
	sort.Strings(m)
	return m
}

// Parca is the folder of the Parca v0.28.0 recordings.
func Parca() string { return filepath.Join(Dir(), "parca") }

// Pyroscope is the folder of the Pyroscope v2.2.1 recordings.
func Pyroscope() string { return filepath.Join(Dir(), "pyroscope") }

// PyroscopeLimits is the folder of the recordings of Pyroscope's default
// query length limit (64–73), kept apart from the ordered replay.
func PyroscopeLimits() string { return filepath.Join(Dir(), "pyroscope", "limits") }

// Full reports whether the long versions of the long suites were asked for
// (EMBERSCOPE_FULL=1: the 20-kill crash loop, the load test, long fuzzing).
// The default run takes the short version of each; it never skips one.
func Full() bool { return os.Getenv("EMBERSCOPE_FULL") == "1" }

// Profiles holds the real profiles recorded with runtime/pprof by
// internal/testdata/record (see profiles/README.md for what each holds).
const Profiles = "profiles"

// Profile returns the bytes of one recorded profile of profiles/, such as
// "categories.cpu.pb.gz", failing tb when it is missing.
func Profile(tb testing.TB, name string) []byte {
	tb.Helper()
	return Read(tb, Profiles+"/"+name)
}

// ProfilePath is the absolute path of one recorded profile of profiles/.
func ProfilePath(tb testing.TB, name string) string {
	tb.Helper()
	return Path(tb, Profiles+"/"+name)
}
