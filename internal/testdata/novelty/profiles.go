// Package noveltydata reads the real CPU profiles of this folder, recorded
// once by ./recorder with runtime/pprof: stable series of two programs and
// profiles changed by real changes of their workloads (manifest.json says
// which is which). Tests read them; none records its own.
package noveltydata

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/pprof/profile"

	"github.com/emberscope/emberscope/internal/testdata"
)

// Entry is one recorded profile, as manifest.json lists it.
type Entry struct {
	File    string  `json:"file"`
	Program string  `json:"program"`
	Series  string  `json:"series"`
	Change  string  `json:"change"`
	Amount  float64 `json:"amount"`
	Detail  string  `json:"detail"`
}

// Name is the file's base name without ".pb.gz".
func (e Entry) Name() string {
	n := e.File[strings.LastIndexByte(e.File, '/')+1:]
	return strings.TrimSuffix(n, ".pb.gz")
}

// Manifest returns every recorded profile, stable ones first in recording order.
func Manifest(tb testing.TB) []Entry {
	tb.Helper()
	var es []Entry
	if err := json.Unmarshal(testdata.Read(tb, "novelty/manifest.json"), &es); err != nil {
		tb.Fatalf("novelty/manifest.json: %v", err)
	}
	return es
}

// Stable returns the first n stable profiles of series (all when n ≤ 0),
// failing tb when there are fewer.
func Stable(tb testing.TB, series string, n int) []Entry {
	tb.Helper()
	var out []Entry
	for _, e := range Manifest(tb) {
		if e.Change == "" && e.Series == series {
			out = append(out, e)
		}
	}
	if n > 0 {
		if len(out) < n {
			tb.Fatalf("novelty fixtures: %d stable %s profiles, want %d", len(out), series, n)
		}
		out = out[:n]
	}
	return out
}

// Changed returns the changed profile named name (e.g. "rideshare-hot-20").
func Changed(tb testing.TB, name string) Entry {
	tb.Helper()
	for _, e := range Manifest(tb) {
		if e.Change != "" && e.Name() == name {
			return e
		}
	}
	tb.Fatalf("novelty fixtures: no changed profile %q", name)
	return Entry{}
}

// testdataRead returns a fixture of internal/testdata.
func testdataRead(tb testing.TB, rel string) []byte {
	tb.Helper()
	return testdata.Read(tb, rel)
}

// Read returns the pprof bytes of e.
func Read(tb testing.TB, e Entry) []byte {
	tb.Helper()
	return testdata.Read(tb, "novelty/"+e.File)
}

// Parse returns e's profile.
func Parse(tb testing.TB, e Entry) *profile.Profile {
	tb.Helper()
	p, err := profile.Parse(bytes.NewReader(Read(tb, e)))
	if err != nil {
		tb.Fatalf("parse %s: %v", e.File, err)
	}
	return p
}

// At returns e's profile re-timed to at (its samples untouched), gzipped
// pprof, for a store that files a profile under its own time.
func At(tb testing.TB, e Entry, at time.Time) []byte {
	tb.Helper()
	p := Parse(tb, e)
	p.TimeNanos = at.UnixNano()
	var b bytes.Buffer
	if err := p.Write(&b); err != nil {
		tb.Fatalf("write %s: %v", e.File, err)
	}
	return b.Bytes()
}
