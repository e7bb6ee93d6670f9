// Package plugintest starts the embedded store for the plugin's and the
// playground's tests, and makes real profiles with runtime/pprof to send it:
// CPU burnt in distinct named functions, under pprof.Do labels, and heap
// allocated in named functions.
package plugintest

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"runtime/pprof"
	"testing"
	"time"

	"github.com/google/pprof/profile"

	"github.com/emberscope/emberscope/pkg/store"
)

// Store starts the embedded store in a temporary directory behind an
// httptest server and returns its URL; both stop when the test ends.
func Store(t testing.TB) string {
	t.Helper()
	st, err := store.Open(store.Options{Dir: t.TempDir(), NoIngestWindow: true, NoRetention: true})
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	srv := httptest.NewServer(st.Handler())
	t.Cleanup(func() {
		srv.Close()
		_ = st.Close()
	})
	return srv.URL
}

// Ingest sends a pprof profile to the store's /ingest under app name name,
// e.g. "shop{env=\"test\"}".
func Ingest(t testing.TB, storeURL, name string, pprofBytes []byte) {
	t.Helper()
	u := storeURL + "/ingest?format=pprof&name=" + url.QueryEscape(name)
	resp, err := http.Post(u, "application/octet-stream", bytes.NewReader(pprofBytes))
	if err != nil {
		t.Fatalf("ingest: %v", err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("ingest %s: HTTP %d: %s", name, resp.StatusCode, body)
	}
}

// Routes are the pprof label values CPUProfile burns CPU under, each in its
// own function; a third share of the work runs without the label.
var Routes = []string{"/checkout", "/search"}

// CPUProfile records a real CPU profile of work spread over burnCheckout
// (route=/checkout), burnSearch (route=/search) and burnUnlabelled (no
// route label), each running for about d of CPU time, and returns it gzipped
// as runtime/pprof writes it.
func CPUProfile(t testing.TB, d time.Duration) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := pprof.StartCPUProfile(&buf); err != nil {
		t.Fatalf("start CPU profile: %v", err)
	}
	ctx := context.Background()
	pprof.Do(ctx, pprof.Labels("route", Routes[0]), func(context.Context) { burnCheckout(d) })
	pprof.Do(ctx, pprof.Labels("route", Routes[1]), func(context.Context) { burnSearch(d) })
	burnUnlabelled(d)
	pprof.StopCPUProfile()
	return buf.Bytes()
}

var sink uint64

// spin burns CPU until d has passed on the wall clock.
//
//go:noinline
func spin(d time.Duration, seed uint64) uint64 {
	x := seed
	for end := time.Now().Add(d); time.Now().Before(end); {
		for i := 0; i < 20000; i++ {
			x = x*6364136223846793005 + 1442695040888963407
		}
	}
	return x
}

//go:noinline
func burnCheckout(d time.Duration) { sink += spin(d, 1) }

//go:noinline
func burnSearch(d time.Duration) { sink += spin(d, 2) }

//go:noinline
func burnUnlabelled(d time.Duration) { sink += spin(d, 3) }

// HeapProfile returns a real heap profile (gzipped) taken after allocating
// in allocLarge and allocSmall, with every allocation sampled. The
// allocations stay reachable until the test ends, so they are in use.
func HeapProfile(t testing.TB) []byte {
	t.Helper()
	old := runtime.MemProfileRate
	runtime.MemProfileRate = 1
	t.Cleanup(func() { runtime.MemProfileRate = old })
	keep := [][]byte{allocLarge(), allocSmall()}
	runtime.GC()
	var buf bytes.Buffer
	if err := pprof.Lookup("heap").WriteTo(&buf, 0); err != nil {
		t.Fatalf("write heap profile: %v", err)
	}
	t.Cleanup(func() { runtime.KeepAlive(keep) })
	return buf.Bytes()
}

//go:noinline
func allocLarge() []byte { return make([]byte, 4<<20) }

//go:noinline
func allocSmall() []byte { return make([]byte, 64<<10) }

// Parse parses a pprof profile.
func Parse(t testing.TB, b []byte) *profile.Profile {
	t.Helper()
	p, err := profile.ParseData(b)
	if err != nil {
		t.Fatalf("parse profile: %v", err)
	}
	return p
}

// SampleIndex returns the index of a sample type, failing the test when absent.
func SampleIndex(t testing.TB, p *profile.Profile, typ string) int {
	t.Helper()
	for i, st := range p.SampleType {
		if st.Type == typ {
			return i
		}
	}
	t.Fatalf("profile has no sample type %q", typ)
	return -1
}

// Totals returns the profile's total of one sample type and, per function
// name, its flat value: the value of the samples whose leaf frame
// (Location[0].Line[0]) is that function.
func Totals(p *profile.Profile, index int) (total int64, flat map[string]int64) {
	flat = map[string]int64{}
	for _, s := range p.Sample {
		v := s.Value[index]
		if v == 0 {
			continue
		}
		total += v
		if len(s.Location) > 0 && len(s.Location[0].Line) > 0 && s.Location[0].Line[0].Function != nil {
			flat[s.Location[0].Line[0].Function.Name] += v
		}
	}
	return total, flat
}

// LabelTotals returns the total of one sample type per value of a sample
// label ("" for the samples without it).
func LabelTotals(p *profile.Profile, index int, label string) map[string]int64 {
	out := map[string]int64{}
	for _, s := range p.Sample {
		v := s.Value[index]
		if v == 0 {
			continue
		}
		val := ""
		if vs := s.Label[label]; len(vs) > 0 {
			val = vs[0]
		}
		out[val] += v
	}
	return out
}

// FuncName is the full name pprof gives a function of this package.
func FuncName(short string) string {
	return fmt.Sprintf("github.com/emberscope/emberscope/pkg/plugin/plugintest.%s", short)
}
