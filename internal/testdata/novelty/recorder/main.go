// Command recorder records the real CPU profiles of internal/testdata/novelty
// with runtime/pprof, once; the tests read the files it wrote and never burn
// CPU themselves.
//
//	go build -o /tmp/recorder ./internal/testdata/novelty/recorder
//	export GODEBUG=asyncpreemptoff=1
//	/tmp/recorder -out internal/testdata/novelty -job stable-rideshare -from 0 -stable 16 &
//	/tmp/recorder -out internal/testdata/novelty -job stable-rideshare -from 16 -stable 16 &
//	/tmp/recorder -out internal/testdata/novelty -job stable-logindex -from 0 -stable 16 &
//	/tmp/recorder -out internal/testdata/novelty -job stable-logindex -from 16 -stable 16 &
//	/tmp/recorder -out internal/testdata/novelty -job changed-rideshare &
//	/tmp/recorder -out internal/testdata/novelty -job changed-logindex &
//	wait; /tmp/recorder -out internal/testdata/novelty -merge
//
// (or -job all, the same in one process, one after the other). Three real
// programs run, one at a time on one thread per process, each recorded until
// it has used -seconds of CPU, at -hz samples per second (the machine may be
// busy: CPU time, not wall time, sets the samples; Linux's CPU timers tick at
// most at the kernel's rate, 250 Hz here, and 6 s of CPU gave 1,009–1,249
// samples, as many as a 10 s profile of pyroscope-go at 100 Hz of a service
// keeping one core busy; asynchronous preemption off keeps its signal handler
// out of the leaves):
//
//   - rideshare: the demo service's HTTP handlers (pkg/demo) serving a mix of
//     car, bike and scooter trips, quoted and booked, through httptest.
//   - logindex: a batch job that generates log lines, parses them as JSON,
//     indexes their words, sorts the postings and gzips the batch.
//   - thumbnails: draws and scales images and encodes them as PNG.
//
// Stable series (stable/<program>-NN.pb.gz) repeat the same workload: each
// profile is a new recording, so they differ only by the natural variance
// of sampling and scheduling. Changed profiles (changed/<name>.pb.gz) come
// from real changes of the workload: a new hot function taking 10, 20 or 30%
// of the time (verifyRequestSignature in rideshare, redactSecrets in
// logindex), the request or phase mix shifted by 10, 20 or 30 points (scooter trips up in rideshare; parsing and indexing up, compression down, in logindex), or a
// different program in the series. manifest.json lists every file with what
// it is.
package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"log"
	"math"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/pprof"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/emberscope/emberscope/pkg/demo"
)

// Entry is one recorded profile in manifest.json.
type Entry struct {
	File    string `json:"file"`
	Program string `json:"program"`
	// Series is the stable series the profile belongs to or is scored against.
	Series string `json:"series"`
	// Change is "" for stable profiles, else what changed: "hot", "mix" or "program".
	Change string `json:"change,omitempty"`
	// Amount is the intended share (hot) or shift in points (mix), 0..1.
	Amount float64 `json:"amount,omitempty"`
	// Detail says in words what the workload did.
	Detail string `json:"detail"`
}

func main() {
	out := flag.String("out", "internal/testdata/novelty", "output folder")
	stable := flag.Int("stable", 32, "stable profiles per program")
	seconds := flag.Float64("seconds", 6, "CPU seconds per profile")
	hz := flag.Int("hz", 250, "CPU samples per second (Linux's CPU timers give at most its tick rate, often 250)")
	job := flag.String("job", "all", "what to record: all, or one part to run beside the others: stable-rideshare, stable-logindex, changed-rideshare, changed-logindex")
	from := flag.Int("from", 0, "with a stable-* job: the first stable profile's number (the part records -stable profiles from it)")
	merge := flag.Bool("merge", false, "merge the manifests of the parts (manifest-*.json) into manifest.json and remove them")
	flag.Parse()
	if *merge {
		mergeManifests(*out)
		return
	}
	runtime.GOMAXPROCS(1)
	runtime.LockOSThread()
	r := &recorder{out: *out, dur: time.Duration(*seconds * float64(time.Second)), hz: *hz}
	for _, d := range []string{"stable", "changed"} {
		if err := os.MkdirAll(filepath.Join(r.out, d), 0o755); err != nil {
			log.Fatal(err)
		}
	}
	// Each part seeds its own random requests and batches, so parts running
	// side by side do not repeat each other's workload.
	seed := uint64(*from)*7919 + uint64(len(*job))
	ride := newRideshare(seed)
	logs := newLogindex(seed)
	thumbs := &thumbnails{}

	stableRun := func(program string, first, n int) {
		for i := first; i < first+n; i++ {
			switch program {
			case "rideshare":
				r.record(fmt.Sprintf("stable/rideshare-%02d.pb.gz", i), Entry{Program: "rideshare", Series: "rideshare", Detail: "the usual trip mix"}, ride.usual())
			case "logindex":
				r.record(fmt.Sprintf("stable/logindex-%02d.pb.gz", i), Entry{Program: "logindex", Series: "logindex", Detail: "the usual batch"}, logs.usual())
			}
		}
	}
	changedRideshare := func() {
		for _, a := range []float64{0.1, 0.2, 0.3} {
			pct := int(math.Round(a * 100))
			r.record(fmt.Sprintf("changed/rideshare-hot-%02d.pb.gz", pct), Entry{Program: "rideshare", Series: "rideshare", Change: "hot", Amount: a,
				Detail: fmt.Sprintf("every request also verifies a keyed checksum signature, about %d%% of the time", pct)}, ride.withSignature(a))
			r.record(fmt.Sprintf("changed/rideshare-mix-%02d.pb.gz", pct), Entry{Program: "rideshare", Series: "rideshare", Change: "mix", Amount: a,
				Detail: fmt.Sprintf("scooter trips up %d points of the requests, car and bike down", pct)}, ride.shifted(a))
		}
		r.record("changed/thumbnails-in-rideshare.pb.gz", Entry{Program: "thumbnails", Series: "rideshare", Change: "program", Amount: 1,
			Detail: "a different program (thumbnail rendering) in the rideshare series"}, thumbs.run)
		r.record("changed/logindex-in-rideshare.pb.gz", Entry{Program: "logindex", Series: "rideshare", Change: "program", Amount: 1,
			Detail: "the logindex batch in the rideshare series"}, logs.usual())
	}
	changedLogindex := func() {
		for _, a := range []float64{0.1, 0.2, 0.3} {
			pct := int(math.Round(a * 100))
			r.record(fmt.Sprintf("changed/logindex-hot-%02d.pb.gz", pct), Entry{Program: "logindex", Series: "logindex", Change: "hot", Amount: a,
				Detail: fmt.Sprintf("every batch also redacts secrets with a regexp, about %d%% of the time", pct)}, logs.withRedaction(a))
			r.record(fmt.Sprintf("changed/logindex-mix-%02d.pb.gz", pct), Entry{Program: "logindex", Series: "logindex", Change: "mix", Amount: a,
				Detail: fmt.Sprintf("parsing and indexing up %d points of the batch's time, compression down", pct)}, logs.shifted(a))
		}
		r.record("changed/thumbnails-in-logindex.pb.gz", Entry{Program: "thumbnails", Series: "logindex", Change: "program", Amount: 1,
			Detail: "a different program (thumbnail rendering) in the logindex series"}, thumbs.run)
		r.record("changed/rideshare-in-logindex.pb.gz", Entry{Program: "rideshare", Series: "logindex", Change: "program", Amount: 1,
			Detail: "the rideshare service in the logindex series"}, ride.usual())
	}

	manifest := "manifest.json"
	switch *job {
	case "all":
		for i := range *stable {
			stableRun("rideshare", i, 1)
			stableRun("logindex", i, 1)
		}
		changedRideshare()
		changedLogindex()
	case "stable-rideshare":
		stableRun("rideshare", *from, *stable)
	case "stable-logindex":
		stableRun("logindex", *from, *stable)
	case "changed-rideshare":
		changedRideshare()
	case "changed-logindex":
		changedLogindex()
	default:
		log.Fatalf("-job %q: want all, stable-rideshare, stable-logindex, changed-rideshare or changed-logindex", *job)
	}
	if *job != "all" {
		manifest = fmt.Sprintf("manifest-%s-%02d.json", *job, *from)
	}
	writeManifest(filepath.Join(r.out, manifest), r.entries)
}

func writeManifest(file string, es []Entry) {
	b, err := json.MarshalIndent(es, "", "  ")
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(file, append(b, '\n'), 0o644); err != nil {
		log.Fatal(err)
	}
}

// mergeManifests writes manifest.json from the parts' manifests: stable
// profiles first, by series and number, then the changed ones.
func mergeManifests(out string) {
	parts, err := filepath.Glob(filepath.Join(out, "manifest-*.json"))
	if err != nil || len(parts) == 0 {
		log.Fatalf("no manifest-*.json in %s (%v)", out, err)
	}
	var all []Entry
	for _, p := range parts {
		b, err := os.ReadFile(p)
		if err != nil {
			log.Fatal(err)
		}
		var es []Entry
		if err := json.Unmarshal(b, &es); err != nil {
			log.Fatalf("%s: %v", p, err)
		}
		all = append(all, es...)
	}
	rank := func(e Entry) int {
		switch {
		case e.Change == "" && e.Series == "rideshare":
			return 0
		case e.Change == "":
			return 1
		case e.Series == "rideshare":
			return 2
		}
		return 3
	}
	sort.SliceStable(all, func(i, j int) bool {
		if a, b := rank(all[i]), rank(all[j]); a != b {
			return a < b
		}
		if all[i].Change == "" {
			return all[i].File < all[j].File
		}
		return false
	})
	writeManifest(filepath.Join(out, "manifest.json"), all)
	for _, p := range parts {
		if err := os.Remove(p); err != nil {
			log.Fatal(err)
		}
	}
}

type recorder struct {
	out     string
	dur     time.Duration
	hz      int
	entries []Entry
}

// cpuTime is the CPU time this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		log.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// record runs work in a loop until it used r.dur of CPU under the CPU
// profiler and writes the profile to file.
func (r *recorder) record(file string, e Entry, work func()) {
	var buf bytes.Buffer
	// The rate must be set before StartCPUProfile, which then warns that it
	// cannot set its own 100 Hz; the profile's period follows the real rate.
	runtime.SetCPUProfileRate(r.hz)
	if err := pprof.StartCPUProfile(&buf); err != nil {
		log.Fatal(err)
	}
	deadline := cpuTime() + r.dur
	for cpuTime() < deadline {
		work()
	}
	pprof.StopCPUProfile()
	runtime.SetCPUProfileRate(0)
	if err := os.WriteFile(filepath.Join(r.out, file), buf.Bytes(), 0o644); err != nil {
		log.Fatal(err)
	}
	e.File = file
	r.entries = append(r.entries, e)
	log.Printf("%s: %d bytes", file, buf.Len())
}

// rideshare drives the demo service's handlers in process.
type rideshare struct {
	h     http.Handler
	nodes int
	rng   *rand.Rand
	// perRequest is the measured time of one usual request.
	perRequest time.Duration
}

func newRideshare(seed uint64) *rideshare {
	s := demo.NewService()
	r := &rideshare{h: s.Handler(), nodes: s.Nodes(), rng: rand.New(rand.NewPCG(1+seed, 2))}
	r.perRequest = cost(func() { r.request(r.pick([3]float64{0.4, 0.3, 0.3})) })
	return r
}

var vehicles = [3]string{"car", "bike", "scooter"}

// pick chooses a vehicle with the given probabilities.
func (r *rideshare) pick(p [3]float64) string {
	x := r.rng.Float64()
	for i, pi := range p {
		if x < pi {
			return vehicles[i]
		}
		x -= pi
	}
	return vehicles[2]
}

func (r *rideshare) request(vehicle string) {
	step := "quote"
	if r.rng.IntN(4) == 0 {
		step = "book"
	}
	url := fmt.Sprintf("/%s?from=%d&to=%d&step=%s&rider=%d", vehicle, r.rng.IntN(r.nodes), r.rng.IntN(r.nodes), step, r.rng.IntN(1000))
	req := httptest.NewRequest(http.MethodGet, url, nil)
	w := httptest.NewRecorder()
	r.h.ServeHTTP(w, req)
	if w.Code != http.StatusOK {
		log.Fatalf("%s: %d %s", url, w.Code, w.Body.String())
	}
}

// usual serves the usual mix: 40% car, 30% bike, 30% scooter.
func (r *rideshare) usual() func() {
	return func() { r.request(r.pick([3]float64{0.4, 0.3, 0.3})) }
}

// shifted moves points of the mix from car and bike to scooter.
func (r *rideshare) shifted(points float64) func() {
	p := [3]float64{0.4 - points/2, 0.3 - points/2, 0.3 + points}
	return func() { r.request(r.pick(p)) }
}

// withSignature serves the usual mix and verifies a request signature
// taking about share of the time.
func (r *rideshare) withSignature(share float64) func() {
	extra := time.Duration(float64(r.perRequest) * share / (1 - share))
	rounds := calibrate(func() { verifyRequestSignature(256) }, extra, 256)
	usual := r.usual()
	return func() {
		usual()
		verifyRequestSignature(rounds)
	}
}

var signingKey = []byte("recorder-signing-key")

// verifyRequestSignature computes a keyed checksum of a canonical request,
// rounds times over, as a (home-made) signature check would: its time is
// its own, not a library's.
//
//go:noinline
func verifyRequestSignature(rounds int) uint64 {
	msg := []byte("GET /car?from=1&to=2&step=quote&rider=7\nhost: rideshare\n")
	sum := uint64(14695981039346656037)
	for range rounds {
		for _, k := range signingKey {
			sum = (sum ^ uint64(k)) * 1099511628211
		}
		for _, b := range msg {
			sum = (sum^uint64(b))*1099511628211 ^ sum>>29
		}
	}
	return sum
}

// cost is the CPU time of one run of f, averaged over a quarter second.
func cost(f func()) time.Duration {
	start := cpuTime()
	n := 0
	for cpuTime()-start < 250*time.Millisecond {
		f()
		n++
	}
	return (cpuTime() - start) / time.Duration(n)
}

// calibrate returns how many units of f take about d of CPU (f runs units units).
func calibrate(f func(), d time.Duration, units int) int {
	return max(1, int(float64(units)*float64(d)/float64(cost(f))))
}

// logindex is a batch job over generated log lines.
type logindex struct {
	rng   *rand.Rand
	lines [][]byte
	// perBatch is the measured time of one usual batch; parts its phases.
	perBatch time.Duration
}

func newLogindex(seed uint64) *logindex {
	l := &logindex{rng: rand.New(rand.NewPCG(3+seed, 4))}
	l.lines = generateLogLines(l.rng, 400)
	l.perBatch = cost(func() { l.batch(1, 1) })
	return l
}

var words = strings.Fields("user login failed request served cache miss token=abc123 retry upstream timeout " +
	"disk flush compaction shard leader elected lease renewed password=hunter2 gc pause query plan scan rows")

func generateLogLines(rng *rand.Rand, n int) [][]byte {
	out := make([][]byte, n)
	for i := range out {
		var msg []string
		for range 8 + rng.IntN(8) {
			msg = append(msg, words[rng.IntN(len(words))])
		}
		b, _ := json.Marshal(map[string]any{"ts": 1700000000 + i, "level": []string{"info", "warn", "error"}[rng.IntN(3)], "msg": strings.Join(msg, " "), "svc": "api"})
		out[i] = b
	}
	return out
}

type logRecord struct {
	TS    int64  `json:"ts"`
	Level string `json:"level"`
	Msg   string `json:"msg"`
	Svc   string `json:"svc"`
}

// batch parses and indexes the lines index times and compresses them
// compress times.
func (l *logindex) batch(index, compress int) {
	for range index {
		recs := parseRecords(l.lines)
		postings := indexTerms(recs)
		sortPostings(postings)
	}
	for range compress {
		compressBatch(l.lines)
	}
}

//go:noinline
func parseRecords(lines [][]byte) []logRecord {
	out := make([]logRecord, len(lines))
	for i, b := range lines {
		if err := json.Unmarshal(b, &out[i]); err != nil {
			log.Fatal(err)
		}
	}
	return out
}

//go:noinline
func indexTerms(recs []logRecord) map[string][]int {
	idx := map[string][]int{}
	for i, r := range recs {
		for _, w := range strings.Fields(strings.ToLower(r.Msg)) {
			idx[w] = append(idx[w], i)
		}
		idx["level:"+r.Level] = append(idx["level:"+r.Level], i)
	}
	return idx
}

//go:noinline
func sortPostings(idx map[string][]int) []string {
	terms := make([]string, 0, len(idx))
	for t, ps := range idx {
		sort.Sort(sort.Reverse(sort.IntSlice(ps)))
		terms = append(terms, t)
	}
	sort.Strings(terms)
	return terms
}

//go:noinline
func compressBatch(lines [][]byte) int {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	for _, b := range lines {
		zw.Write(b)
		zw.Write([]byte{'\n'})
	}
	zw.Close()
	return buf.Len()
}

func (l *logindex) usual() func() { return func() { l.batch(1, 1) } }

// shifted gives parsing and indexing points more of the batch's time,
// compression that much less: compression takes most of the usual batch
// (about 80 % of its CPU), so the mix moves the other way. Parsing and
// indexing run k rounds per batch, where their measured share u of the usual
// batch becomes k·u / (k·u + 1 − u) = u + points.
func (l *logindex) shifted(points float64) func() {
	index := float64(cost(func() { l.batch(1, 0) }))
	compress := float64(cost(func() { compressBatch(l.lines) }))
	u := index / (index + compress)
	target := min(u+points, 0.95)
	k := target * (1 - u) / (u * (1 - target))
	whole := int(k)
	frac := k - float64(whole)
	log.Printf("logindex mix: parsing and indexing %.0f%% of the usual batch, %.2f rounds for %.0f%%", 100*u, k, 100*target)
	return func() {
		n := whole
		if l.rng.Float64() < frac {
			n++
		}
		l.batch(n, 1)
	}
}

var secretPattern = regexp.MustCompile(`(token|password)=[^ "]+`)

// withRedaction runs the usual batch and redacts secrets from the lines,
// taking about share of the time.
func (l *logindex) withRedaction(share float64) func() {
	extra := time.Duration(float64(l.perBatch) * share / (1 - share))
	rounds := calibrate(func() { redactSecrets(l.lines, 1) }, extra, 1)
	usual := l.usual()
	return func() {
		usual()
		redactSecrets(l.lines, rounds)
	}
}

//go:noinline
func redactSecrets(lines [][]byte, rounds int) int {
	n := 0
	for range rounds {
		for _, b := range lines {
			n += len(secretPattern.ReplaceAll(b, []byte("$1=REDACTED")))
		}
	}
	return n
}

// thumbnails draws images and encodes PNG thumbnails of them.
type thumbnails struct{ seed int }

func (t *thumbnails) run() {
	t.seed++
	img := drawGradient(256, 256, t.seed)
	small := scaleDown(img, 4)
	encodePNG(small)
}

//go:noinline
func drawGradient(w, h, seed int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			v := math.Sin(float64(x*seed)/37) * math.Cos(float64(y)/23)
			img.Set(x, y, color.RGBA{uint8(128 + 127*v), uint8(x), uint8(y), 255})
		}
	}
	return img
}

//go:noinline
func scaleDown(src *image.RGBA, f int) *image.RGBA {
	b := src.Bounds()
	dst := image.NewRGBA(image.Rect(0, 0, b.Dx()/f, b.Dy()/f))
	for y := 0; y < b.Dy()/f; y++ {
		for x := 0; x < b.Dx()/f; x++ {
			var r, g, bl, n uint32
			for dy := range f {
				for dx := range f {
					c := src.RGBAAt(x*f+dx, y*f+dy)
					r, g, bl, n = r+uint32(c.R), g+uint32(c.G), bl+uint32(c.B), n+1
				}
			}
			dst.SetRGBA(x, y, color.RGBA{uint8(r / n), uint8(g / n), uint8(bl / n), 255})
		}
	}
	return dst
}

//go:noinline
func encodePNG(img image.Image) int {
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		log.Fatal(err)
	}
	return buf.Len()
}
