// Command genprofile writes a real CPU profile made with runtime/pprof for the browser
// tests: it burns CPU in distinctly named functions, under pprof.Do labels, so the
// flamegraph has known shapes (parseJSON and hashBlocks under handleRequest, compress
// beside them) and sample labels (route).
package main

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime/pprof"
	"time"
)

var sink int

//go:noinline
func hashBlocks(d time.Duration) {
	buf := make([]byte, 4096)
	for end := time.Now().Add(d); time.Now().Before(end); {
		s := sha256.Sum256(buf)
		buf[0] = s[0]
		sink += int(s[1])
	}
}

//go:noinline
func parseJSON(d time.Duration) {
	doc := []byte(`{"a":[1,2,3,{"b":"c","d":[true,false,null]}],"e":"fghijklmnop","q":{"r":1.5}}`)
	for end := time.Now().Add(d); time.Now().Before(end); {
		var v map[string]any
		if err := json.Unmarshal(doc, &v); err != nil {
			panic(err)
		}
		sink += len(v)
	}
}

//go:noinline
func compress(d time.Duration) {
	x := uint64(1)
	for end := time.Now().Add(d); time.Now().Before(end); {
		for i := 0; i < 10000; i++ {
			x ^= x << 13
			x ^= x >> 7
			x ^= x << 17
		}
		sink += int(x & 1)
	}
}

//go:noinline
func handleRequest(d time.Duration) {
	parseJSON(d * 2 / 5)
	hashBlocks(d * 3 / 5)
}

func main() {
	out := flag.String("out", "cpu.pb.gz", "file to write the CPU profile to")
	dur := flag.Duration("d", 1500*time.Millisecond, "how long to burn CPU")
	flag.Parse()
	f, err := os.Create(*out)
	if err != nil {
		fmt.Fprintln(os.Stderr, "genprofile:", err)
		os.Exit(1)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		fmt.Fprintln(os.Stderr, "genprofile: start CPU profile:", err)
		os.Exit(1)
	}
	ctx := context.Background()
	pprof.Do(ctx, pprof.Labels("route", "/api/orders"), func(context.Context) { handleRequest(*dur * 2 / 3) })
	pprof.Do(ctx, pprof.Labels("route", "/api/archive"), func(context.Context) { compress(*dur / 3) })
	pprof.StopCPUProfile()
	if err := f.Close(); err != nil {
		fmt.Fprintln(os.Stderr, "genprofile:", err)
		os.Exit(1)
	}
}
