// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Command recorder records the real CPU profiles of the novelty evaluation
// series (internal/testdata/novelty/series) with runtime/pprof, once; tests
// read the files and never burn CPU themselves.
//
//	go build -o /tmp/series-recorder ./internal/testdata/novelty/series/recorder
//	export GODEBUG=asyncpreemptoff=1
//	for p in logindex rideshare thumbnails codefmt; do
//	  /tmp/series-recorder -out internal/testdata/novelty/series -program $p &
//	done; wait
//	/tmp/series-recorder -out internal/testdata/novelty/series -merge
//
// series2k (about 2,000 samples a profile, all six programs, seed 2) is
// recorded by record-2k.sh next to this folder, series3 (the same with seed
// 3 and two changed profiles per change) by record-3.sh.
//
// Six real Go programs (series/ holds the first four; sitegen and vault were
// added for series2k, as programs no scorer constant was chosen on) run on one thread each, as a mix of phases (a phase
// is real work of the program: parsing JSON, gzip, HTTP handlers planning
// routes, PNG encoding, go/parser...). Every profile is a new recording of
// -seconds of CPU at -hz. Each profile's mix is drawn from a seeded random
// source, so the series are reproducible in intent while the samples vary
// as real ones do:
//
//   - steady phases keep their share of the CPU time in every profile;
//   - one pair of noisy phases trades share at random, ±noise points per
//     profile (as a service's request mix or a batch's content wanders).
//
// Stable series (<program>/stable-NN.pb.gz) repeat the usual mix. Changed
// profiles (<program>/<kind>-NN.pb.gz) move a steady phase ("steady") or a
// noisy one ("noisy", its noise kept) up by 5, 10, 15 or 30 points of the
// CPU time, the other phases giving up time in proportion; add a new hot
// function taking 10 % ("hot"); or are another program's usual mix in the
// series ("program"). manifest.json lists every file with what it is.
package main

import (
	"bytes"
	"compress/gzip"
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/scanner"
	"go/token"
	htmltemplate "html/template"
	"image"
	"image/color"
	"image/jpeg"
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
	"slices"
	"sort"
	"strings"
	"syscall"
	texttemplate "text/template"
	"time"
	"unicode"

	"github.com/emberscope/emberscope/pkg/demo"
)

// Entry is one recorded profile in manifest.json.
type Entry struct {
	File    string `json:"file"`
	Program string `json:"program"`
	// Series is the stable series the profile belongs to or is scored against.
	Series string `json:"series"`
	// Change is "" for stable profiles, else "steady", "noisy", "hot" or "program".
	Change string `json:"change,omitempty"`
	// Amount is the change in points (steady, noisy) or share (hot), 0..1.
	Amount float64 `json:"amount,omitempty"`
	// Phase is the phase that moved (or was added).
	Phase string `json:"phase,omitempty"`
	// Function is the function the phase's time is spent in first.
	Function string `json:"function,omitempty"`
	// Shares are the intended CPU shares of the phases.
	Shares map[string]float64 `json:"shares"`
}

func main() {
	out := flag.String("out", "internal/testdata/novelty/series", "output folder")
	program := flag.String("program", "", "program to record: logindex, rideshare, thumbnails or codefmt")
	stable := flag.Int("stable", 32, "stable profiles")
	seconds := flag.Float64("seconds", 4, "CPU seconds per profile")
	hz := flag.Int("hz", 250, "CPU samples per second (Linux's CPU timers tick at most at the kernel's rate)")
	seed := flag.Uint64("seed", 17, "seed of the profiles' mixes and rounds (17 recorded series/)")
	changed := flag.Int("changed", 1, "changed profiles per change (steady and noisy of each size, hot), each its own draw")
	others := flag.Int("others", 1, "profiles of another program's usual mix in the series")
	merge := flag.Bool("merge", false, "merge the programs' manifest-*.json into manifest.json")
	flag.Parse()
	if *merge {
		mergeManifests(*out)
		return
	}
	runtime.GOMAXPROCS(1)
	runtime.LockOSThread()
	progs := programs()
	idx := slices.IndexFunc(progs, func(p *prog) bool { return p.name == *program })
	if idx < 0 {
		log.Fatalf("-program %q: want one of %s", *program, strings.Join(programNames(progs), ", "))
	}
	p := progs[idx]
	other := progs[otherProgram(idx)]
	r := &recorder{out: *out, dur: time.Duration(*seconds * float64(time.Second)), hz: *hz, seed: *seed}
	if err := os.MkdirAll(filepath.Join(r.out, p.name), 0o755); err != nil {
		log.Fatal(err)
	}
	p.calibrate()
	other.calibrate()
	rng := rand.New(rand.NewPCG(uint64(idx)+1, *seed))
	// suffix names the j-th of several profiles of one change ("", "-b", "-c"...),
	// so that one of each keeps series/'s names.
	suffix := func(j int) string {
		if j == 0 {
			return ""
		}
		return "-" + string(rune('a'+j))
	}
	for i := range *stable {
		r.record(p, fmt.Sprintf("%s/stable-%02d.pb.gz", p.name, i), Entry{}, p.mix(rng, "", 0, ""))
	}
	for j := range *changed {
		for _, pts := range []float64{0.05, 0.10, 0.15, 0.30} {
			n := int(math.Round(pts * 100))
			r.record(p, fmt.Sprintf("%s/steady-%02d%s.pb.gz", p.name, n, suffix(j)), Entry{Change: "steady", Amount: pts, Phase: p.steady}, p.mix(rng, p.steady, pts, ""))
			r.record(p, fmt.Sprintf("%s/noisy-%02d%s.pb.gz", p.name, n, suffix(j)), Entry{Change: "noisy", Amount: pts, Phase: p.noisy[0]}, p.mix(rng, p.noisy[0], pts, ""))
		}
		r.record(p, fmt.Sprintf("%s/hot-10%s.pb.gz", p.name, suffix(j)), Entry{Change: "hot", Amount: 0.10, Phase: p.hot.name}, p.mix(rng, "", 0.10, p.hot.name))
	}
	for j := range *others {
		r.record(other, fmt.Sprintf("%s/program-%s%s.pb.gz", p.name, other.name, suffix(j)), Entry{Change: "program", Amount: 1, Phase: other.name}, other.mix(rng, "", 0, ""))
	}
	for i := range r.entries {
		r.entries[i].Series = p.name
	}
	writeManifest(filepath.Join(r.out, "manifest-"+p.name+".json"), r.entries)
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

// mergeManifests writes manifest.json from the programs' manifests, in
// program order, and removes them.
func mergeManifests(out string) {
	var all []Entry
	var merged []string
	for _, p := range programs() {
		file := filepath.Join(out, "manifest-"+p.name+".json")
		b, err := os.ReadFile(file)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			log.Fatal(err)
		}
		merged = append(merged, file)
		var es []Entry
		if err := json.Unmarshal(b, &es); err != nil {
			log.Fatalf("%s: %v", file, err)
		}
		all = append(all, es...)
	}
	if len(all) == 0 {
		log.Fatalf("%s: no manifest-<program>.json to merge", out)
	}
	writeManifest(filepath.Join(out, "manifest.json"), all)
	for _, file := range merged {
		if err := os.Remove(file); err != nil {
			log.Fatal(err)
		}
	}
}

func programNames(progs []*prog) []string {
	var names []string
	for _, p := range progs {
		names = append(names, p.name)
	}
	return names
}

// otherProgram is the index of the program whose usual mix is the "program"
// change in program idx's series: the first four (recorded first, in
// series/) take the next of the four, sitegen and vault each other.
func otherProgram(idx int) int {
	if idx < 4 {
		return (idx + 1) % 4
	}
	return 4 + (idx-4+1)%2
}

// phase is one kind of real work of a program; run does one unit of it.
type phase struct {
	name string
	// function is where the phase spends its time first (for the manifest).
	function string
	run      func()
	cost     time.Duration
}

// prog is a program as a mix of phases.
type prog struct {
	name   string
	phases []*phase
	// base are the usual CPU shares of the phases (summing to 1).
	base []float64
	// noisy is the pair of phases that trade ±noise points per profile.
	noisy [2]string
	noise float64
	// steady is the steady phase that the steady changes move.
	steady string
	// hot is the new function of the hot change.
	hot *phase
}

func (p *prog) calibrate() {
	for _, ph := range append(slices.Clone(p.phases), p.hot) {
		if ph.cost == 0 {
			ph.cost = cost(ph.run)
			log.Printf("%s %s: %s a unit", p.name, ph.name, ph.cost)
		}
	}
}

// mix returns the phases' shares of one profile: the base mix, with moved
// up by pts points (the others scaled down to make room), then the noisy
// pair trading a uniform ±noise; with hot, the hot phase takes pts and the
// others shrink in proportion.
func (p *prog) mix(rng *rand.Rand, moved string, pts float64, hot string) map[string]float64 {
	s := map[string]float64{}
	for i, ph := range p.phases {
		s[ph.name] = p.base[i]
	}
	if moved != "" {
		rest := 1 - s[moved]
		for k := range s {
			if k != moved {
				s[k] *= (rest - pts) / rest
			}
		}
		s[moved] += pts
	}
	u := (2*rng.Float64() - 1) * p.noise
	a, b := p.noisy[0], p.noisy[1]
	u = max(u, 0.01-s[a])
	u = min(u, s[b]-0.01)
	s[a] += u
	s[b] -= u
	if hot != "" {
		for k := range s {
			s[k] *= 1 - pts
		}
		s[hot] = pts
	}
	return s
}

type recorder struct {
	out     string
	dur     time.Duration
	hz      int
	seed    uint64
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

// cost is the CPU time of one run of f, averaged over a fifth of a second.
func cost(f func()) time.Duration {
	f()
	start := cpuTime()
	n := 0
	for cpuTime()-start < 200*time.Millisecond {
		f()
		n++
	}
	return (cpuTime() - start) / time.Duration(n)
}

// record runs p's phases in rounds, each phase for its share of a 40 ms
// round (units rounded at random), until r.dur of CPU was used under the
// CPU profiler, and writes the profile.
func (r *recorder) record(p *prog, file string, e Entry, shares map[string]float64) {
	var phases []*phase
	for _, ph := range append(slices.Clone(p.phases), p.hot) {
		if shares[ph.name] > 0 {
			phases = append(phases, ph)
		}
	}
	rng := rand.New(rand.NewPCG(uint64(len(r.entries))+99+(r.seed-17)<<32, uint64(len(file))))
	const round = 40 * time.Millisecond
	var buf bytes.Buffer
	runtime.SetCPUProfileRate(r.hz)
	if err := pprof.StartCPUProfile(&buf); err != nil {
		log.Fatal(err)
	}
	deadline := cpuTime() + r.dur
	for cpuTime() < deadline {
		for _, ph := range phases {
			units := shares[ph.name] * float64(round) / float64(ph.cost)
			n := int(units)
			if rng.Float64() < units-float64(n) {
				n++
			}
			for range n {
				ph.run()
			}
		}
	}
	pprof.StopCPUProfile()
	runtime.SetCPUProfileRate(0)
	if err := os.WriteFile(filepath.Join(r.out, file), buf.Bytes(), 0o644); err != nil {
		log.Fatal(err)
	}
	e.File, e.Program, e.Shares = file, p.name, shares
	if e.Phase != "" {
		for _, ph := range append(slices.Clone(p.phases), p.hot) {
			if ph.name == e.Phase {
				e.Function = ph.function
			}
		}
	}
	r.entries = append(r.entries, e)
	log.Printf("%s: %d bytes", file, buf.Len())
}

func programs() []*prog {
	l := newLogindex()
	rs := newRideshare()
	th := &thumbnails{}
	cf := newCodefmt()
	sg := newSitegen()
	va := newVault()
	return []*prog{
		{
			name: "logindex",
			phases: []*phase{
				{name: "json parsing", function: "main.parseRecords", run: l.parse},
				{name: "term indexing", function: "main.indexTerms", run: l.index},
				{name: "posting sort", function: "main.sortPostings", run: l.sort},
				{name: "gzip compression", function: "main.compressBatch", run: l.compress},
			},
			base:   []float64{0.30, 0.20, 0.15, 0.35},
			noisy:  [2]string{"json parsing", "gzip compression"},
			noise:  0.06,
			steady: "term indexing",
			hot:    &phase{name: "secret redaction", function: "main.redactSecrets", run: l.redact},
		},
		{
			name: "rideshare",
			phases: []*phase{
				{name: "car trips", function: "github.com/emberscope/emberscope/pkg/demo.(*cityMap).planCarRoute", run: func() { rs.request("car") }},
				{name: "bike trips", function: "github.com/emberscope/emberscope/pkg/demo.(*cityMap).planBikeRoute", run: func() { rs.request("bike") }},
				{name: "scooter trips", function: "github.com/emberscope/emberscope/pkg/demo.(*scooterFleet).locateNearestScooters", run: func() { rs.request("scooter") }},
			},
			base:   []float64{0.40, 0.30, 0.30},
			noisy:  [2]string{"car trips", "bike trips"},
			noise:  0.06,
			steady: "scooter trips",
			hot:    &phase{name: "signature check", function: "main.verifyRequestSignature", run: func() { verifyRequestSignature(256) }},
		},
		{
			name: "thumbnails",
			phases: []*phase{
				{name: "drawing", function: "main.drawGradient", run: th.draw},
				{name: "scaling", function: "main.scaleDown", run: th.scale},
				{name: "png encoding", function: "main.encodePNG", run: th.png},
				{name: "jpeg encoding", function: "main.encodeJPEG", run: th.jpeg},
			},
			base:   []float64{0.35, 0.15, 0.30, 0.20},
			noisy:  [2]string{"png encoding", "jpeg encoding"},
			noise:  0.06,
			steady: "scaling",
			hot:    &phase{name: "blurring", function: "main.boxBlur", run: th.blur},
		},
		{
			name: "codefmt",
			phases: []*phase{
				{name: "scanning", function: "main.scanTokens", run: cf.scan},
				{name: "parsing", function: "main.parseSource", run: cf.parse},
				{name: "printing", function: "main.formatSource", run: cf.format},
				{name: "identifier walk", function: "main.countIdentifiers", run: cf.walk},
			},
			base:   []float64{0.25, 0.30, 0.30, 0.15},
			noisy:  [2]string{"parsing", "printing"},
			noise:  0.06,
			steady: "scanning",
			hot:    &phase{name: "checksums", function: "main.checksumSource", run: cf.checksum},
		},
		{
			name: "sitegen",
			phases: []*phase{
				{name: "markdown conversion", function: "main.convertMarkdown", run: sg.convert},
				{name: "text templates", function: "main.renderFeed", run: sg.feed},
				{name: "html templates", function: "main.renderPages", run: sg.pages},
				{name: "search index", function: "main.buildSearchIndex", run: sg.index},
			},
			base:   []float64{0.25, 0.25, 0.30, 0.20},
			noisy:  [2]string{"html templates", "text templates"},
			noise:  0.06,
			steady: "search index",
			hot:    &phase{name: "link checking", function: "main.checkLinks", run: sg.links},
		},
		{
			name: "vault",
			phases: []*phase{
				{name: "sha256 hashing", function: "main.hashChunks", run: va.hash},
				{name: "aes-gcm sealing", function: "main.sealRecords", run: va.seal},
				{name: "ed25519 signing", function: "main.signManifests", run: va.sign},
				{name: "base64 encoding", function: "main.encodeBlobs", run: va.encode},
			},
			base:   []float64{0.30, 0.25, 0.20, 0.25},
			noisy:  [2]string{"aes-gcm sealing", "sha256 hashing"},
			noise:  0.06,
			steady: "ed25519 signing",
			hot:    &phase{name: "ecdsa verification", function: "main.verifyECDSA", run: va.verify},
		},
	}
}

// logindex is a batch job over generated log lines.
type logindex struct {
	lines [][]byte
	recs  []logRecord
	idx   map[string][]int
}

func newLogindex() *logindex {
	rng := rand.New(rand.NewPCG(3, 4))
	l := &logindex{lines: generateLogLines(rng, 200)}
	l.recs = parseRecords(l.lines)
	l.idx = indexTerms(l.recs)
	return l
}

func (l *logindex) parse()    { parseRecords(l.lines) }
func (l *logindex) index()    { indexTerms(l.recs) }
func (l *logindex) sort()     { sortPostings(copyPostings(l.idx)) }
func (l *logindex) compress() { compressBatch(l.lines) }
func (l *logindex) redact()   { redactSecrets(l.lines) }

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

func copyPostings(idx map[string][]int) map[string][]int {
	out := make(map[string][]int, len(idx))
	for k, v := range idx {
		out[k] = slices.Clone(v)
	}
	return out
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

var secretPattern = regexp.MustCompile(`(token|password)=[^ "]+`)

//go:noinline
func redactSecrets(lines [][]byte) int {
	n := 0
	for _, b := range lines {
		n += len(secretPattern.ReplaceAll(b, []byte("$1=REDACTED")))
	}
	return n
}

// rideshare drives the demo service's handlers in process.
type rideshare struct {
	h     http.Handler
	nodes int
	rng   *rand.Rand
}

func newRideshare() *rideshare {
	s := demo.NewService()
	return &rideshare{h: s.Handler(), nodes: s.Nodes(), rng: rand.New(rand.NewPCG(1, 2))}
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

var signingKey = []byte("recorder-signing-key")

// verifyRequestSignature computes a keyed checksum of a canonical request,
// rounds times over, as a (home-made) signature check would.
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

// thumbnails draws images, scales them and encodes thumbnails.
type thumbnails struct {
	seed  int
	big   *image.RGBA
	small *image.RGBA
}

func (t *thumbnails) draw() {
	t.seed++
	t.big = drawGradient(128, 128, t.seed)
}

func (t *thumbnails) source() *image.RGBA {
	if t.big == nil {
		t.draw()
	}
	return t.big
}

func (t *thumbnails) scale() { t.small = scaleDown(t.source(), 2) }

func (t *thumbnails) thumb() *image.RGBA {
	if t.small == nil {
		t.scale()
	}
	return t.small
}

func (t *thumbnails) png()  { encodePNG(t.thumb()) }
func (t *thumbnails) jpeg() { encodeJPEG(t.thumb()) }
func (t *thumbnails) blur() { boxBlur(t.thumb(), 2) }

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

//go:noinline
func encodeJPEG(img image.Image) int {
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 85}); err != nil {
		log.Fatal(err)
	}
	return buf.Len()
}

//go:noinline
func boxBlur(src *image.RGBA, r int) *image.RGBA {
	b := src.Bounds()
	dst := image.NewRGBA(b)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			var sr, sg, sb, n int
			for dy := -r; dy <= r; dy++ {
				for dx := -r; dx <= r; dx++ {
					if p := (image.Point{X: x + dx, Y: y + dy}); p.In(b) {
						c := src.RGBAAt(p.X, p.Y)
						sr, sg, sb, n = sr+int(c.R), sg+int(c.G), sb+int(c.B), n+1
					}
				}
			}
			dst.SetRGBA(x, y, color.RGBA{uint8(sr / n), uint8(sg / n), uint8(sb / n), 255})
		}
	}
	return dst
}

// source is this file: codefmt works on real Go source.
//
//go:embed main.go
var source []byte

// codefmt is a source tool: it scans, parses, walks and prints Go source.
type codefmt struct {
	fset *token.FileSet
	file *ast.File
}

func newCodefmt() *codefmt {
	c := &codefmt{fset: token.NewFileSet()}
	c.file = parseSource(c.fset, source)
	return c
}

func (c *codefmt) scan()     { scanTokens(source) }
func (c *codefmt) parse()    { parseSource(token.NewFileSet(), source) }
func (c *codefmt) format()   { formatSource(c.fset, c.file) }
func (c *codefmt) walk()     { countIdentifiers(c.file) }
func (c *codefmt) checksum() { checksumSource(source) }

//go:noinline
func scanTokens(src []byte) int {
	var s scanner.Scanner
	fset := token.NewFileSet()
	s.Init(fset.AddFile("main.go", -1, len(src)), src, nil, scanner.ScanComments)
	n := 0
	for {
		_, tok, _ := s.Scan()
		if tok == token.EOF {
			return n
		}
		n++
	}
}

//go:noinline
func parseSource(fset *token.FileSet, src []byte) *ast.File {
	f, err := parser.ParseFile(fset, "main.go", src, parser.ParseComments)
	if err != nil {
		log.Fatal(err)
	}
	return f
}

//go:noinline
func formatSource(fset *token.FileSet, f *ast.File) int {
	var buf bytes.Buffer
	if err := format.Node(&buf, fset, f); err != nil {
		log.Fatal(err)
	}
	return buf.Len()
}

//go:noinline
func countIdentifiers(f *ast.File) map[string]int {
	counts := map[string]int{}
	ast.Inspect(f, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			counts[strings.ToLower(id.Name)]++
		}
		return true
	})
	return counts
}

//go:noinline
func checksumSource(src []byte) [32]byte {
	var sum [32]byte
	for range 16 {
		sum = sha256.Sum256(append(sum[:], src...))
	}
	return sum
}

// sitegen is a static site generator: it converts markdown-like posts to
// HTML, renders the pages (html/template) and the feed (text/template), and
// builds a search index.
type sitegen struct {
	posts []post
	page  *htmltemplate.Template
	feedT *texttemplate.Template
}

type post struct {
	Title, Slug, Source string
	Body                htmltemplate.HTML
	Tags                []string
}

func newSitegen() *sitegen {
	rng := rand.New(rand.NewPCG(5, 6))
	g := &sitegen{
		page: htmltemplate.Must(htmltemplate.New("page").Parse(`<!doctype html><html><head><title>{{.Title}}</title></head>
<body><h1>{{.Title}}</h1><ul class="tags">{{range .Tags}}<li><a href="/tags/{{.}}">{{.}}</a></li>{{end}}</ul>
<article>{{.Body}}</article><footer>{{.Slug}} · {{len .Source}} bytes</footer></body></html>`)),
		feedT: texttemplate.Must(texttemplate.New("feed").Funcs(texttemplate.FuncMap{"upper": strings.ToUpper}).Parse(
			`{{range .}}<entry><title>{{.Title | upper}}</title><id>/{{.Slug}}</id>{{range .Tags}}<category term="{{.}}"/>{{end}}<summary>{{printf "%.120s" .Source}}</summary></entry>
{{end}}`)),
	}
	for i := range 12 {
		var b strings.Builder
		title := sentence(rng, 3+rng.IntN(4))
		fmt.Fprintf(&b, "# %s\n\n", title)
		for range 4 + rng.IntN(4) {
			switch rng.IntN(3) {
			case 0:
				fmt.Fprintf(&b, "## %s\n\n", sentence(rng, 3))
			case 1:
				for range 3 {
					fmt.Fprintf(&b, "- %s with *emphasis* and [a link](https://example.com/%d)\n", sentence(rng, 5), rng.IntN(100))
				}
				b.WriteString("\n")
			}
			fmt.Fprintf(&b, "%s **%s** %s `code` %s.\n\n", sentence(rng, 12), sentence(rng, 2), sentence(rng, 10), sentence(rng, 8))
		}
		p := post{Title: title, Slug: fmt.Sprintf("post-%d", i), Source: b.String(), Tags: []string{words[rng.IntN(len(words))], words[rng.IntN(len(words))]}}
		p.Body = convertMarkdown(p.Source)
		g.posts = append(g.posts, p)
	}
	return g
}

func sentence(rng *rand.Rand, n int) string {
	ws := make([]string, n)
	for i := range ws {
		ws[i] = strings.TrimFunc(words[rng.IntN(len(words))], func(r rune) bool { return !unicode.IsLetter(r) })
	}
	return strings.Join(ws, " ")
}

func (g *sitegen) convert() {
	for i := range g.posts {
		g.posts[i].Body = convertMarkdown(g.posts[i].Source)
	}
}
func (g *sitegen) pages() { renderPages(g.page, g.posts[:4]) }
func (g *sitegen) feed()  { renderFeed(g.feedT, g.posts) }
func (g *sitegen) index() { buildSearchIndex(g.posts) }
func (g *sitegen) links() { checkLinks(g.posts) }

// convertMarkdown turns headings, lists, paragraphs, emphasis, code spans
// and links of a markdown-like text into HTML.
//
//go:noinline
func convertMarkdown(src string) htmltemplate.HTML {
	var out strings.Builder
	inList := false
	for _, line := range strings.Split(src, "\n") {
		line = strings.TrimSpace(line)
		if inList && !strings.HasPrefix(line, "- ") {
			out.WriteString("</ul>\n")
			inList = false
		}
		switch {
		case line == "":
		case strings.HasPrefix(line, "## "):
			out.WriteString("<h2>" + inline(line[3:]) + "</h2>\n")
		case strings.HasPrefix(line, "# "):
			out.WriteString("<h1>" + inline(line[2:]) + "</h1>\n")
		case strings.HasPrefix(line, "- "):
			if !inList {
				out.WriteString("<ul>\n")
				inList = true
			}
			out.WriteString("<li>" + inline(line[2:]) + "</li>\n")
		default:
			out.WriteString("<p>" + inline(line) + "</p>\n")
		}
	}
	if inList {
		out.WriteString("</ul>\n")
	}
	return htmltemplate.HTML(out.String())
}

// inline converts one line's emphasis, code spans and links.
func inline(s string) string {
	s = htmltemplate.HTMLEscapeString(s)
	for _, m := range []struct{ mark, open, close string }{{"**", "<strong>", "</strong>"}, {"*", "<em>", "</em>"}, {"`", "<code>", "</code>"}} {
		for {
			i := strings.Index(s, m.mark)
			if i < 0 {
				break
			}
			j := strings.Index(s[i+len(m.mark):], m.mark)
			if j < 0 {
				break
			}
			j += i + len(m.mark)
			s = s[:i] + m.open + s[i+len(m.mark):j] + m.close + s[j+len(m.mark):]
		}
	}
	for {
		i := strings.Index(s, "[")
		k := strings.Index(s, "](")
		e := strings.Index(s, ")")
		if i < 0 || k < i || e < k {
			return s
		}
		s = s[:i] + `<a href="` + s[k+2:e] + `">` + s[i+1:k] + "</a>" + s[e+1:]
	}
}

//go:noinline
func renderPages(t *htmltemplate.Template, posts []post) int {
	var buf bytes.Buffer
	for _, p := range posts {
		if err := t.Execute(&buf, p); err != nil {
			log.Fatal(err)
		}
	}
	return buf.Len()
}

//go:noinline
func renderFeed(t *texttemplate.Template, posts []post) int {
	var buf bytes.Buffer
	if err := t.Execute(&buf, posts); err != nil {
		log.Fatal(err)
	}
	return buf.Len()
}

//go:noinline
func buildSearchIndex(posts []post) []string {
	idx := map[string]map[string]int{}
	for _, p := range posts {
		for _, w := range strings.FieldsFunc(strings.ToLower(p.Source), func(r rune) bool { return !unicode.IsLetter(r) }) {
			if idx[w] == nil {
				idx[w] = map[string]int{}
			}
			idx[w][p.Slug]++
		}
	}
	terms := make([]string, 0, len(idx))
	for w, ps := range idx {
		slugs := make([]string, 0, len(ps))
		for s := range ps {
			slugs = append(slugs, s)
		}
		sort.Slice(slugs, func(i, j int) bool {
			return ps[slugs[i]] > ps[slugs[j]] || ps[slugs[i]] == ps[slugs[j]] && slugs[i] < slugs[j]
		})
		terms = append(terms, w+":"+strings.Join(slugs, ","))
	}
	sort.Strings(terms)
	return terms
}

var linkPattern = regexp.MustCompile(`\[([^\]]+)\]\((https?://[^)]+)\)`)

//go:noinline
func checkLinks(posts []post) int {
	n := 0
	for _, p := range posts {
		for _, m := range linkPattern.FindAllStringSubmatch(p.Source, -1) {
			if strings.HasPrefix(m[2], "https://") && len(m[1]) > 0 {
				n++
			}
		}
	}
	return n
}

// vault is a secrets store: it hashes chunks, seals records with AES-GCM,
// signs manifests with Ed25519, base64-encodes blobs, and (new) verifies
// ECDSA signatures.
type vault struct {
	chunks  [][]byte
	aead    cipher.AEAD
	nonce   []byte
	edKey   ed25519.PrivateKey
	ecKey   *ecdsa.PrivateKey
	ecSig   []byte
	digest  [32]byte
	counter uint64
}

func newVault() *vault {
	rng := rand.New(rand.NewPCG(7, 8))
	v := &vault{}
	for range 16 {
		b := make([]byte, 1024)
		for i := range b {
			b[i] = byte(rng.IntN(256))
		}
		v.chunks = append(v.chunks, b)
	}
	block, err := aes.NewCipher(v.chunks[0][:32])
	if err != nil {
		log.Fatal(err)
	}
	if v.aead, err = cipher.NewGCM(block); err != nil {
		log.Fatal(err)
	}
	v.nonce = make([]byte, v.aead.NonceSize())
	v.edKey = ed25519.NewKeyFromSeed(v.chunks[1][:ed25519.SeedSize])
	if v.ecKey, err = ecdsa.GenerateKey(elliptic.P256(), bytes.NewReader(bytes.Repeat(v.chunks[2], 4))); err != nil {
		log.Fatal(err)
	}
	v.digest = sha256.Sum256(v.chunks[3])
	if v.ecSig, err = ecdsa.SignASN1(bytes.NewReader(bytes.Repeat(v.chunks[4], 4)), v.ecKey, v.digest[:]); err != nil {
		log.Fatal(err)
	}
	return v
}

func (v *vault) hash() { hashChunks(v.chunks) }
func (v *vault) seal() {
	v.counter++
	sealRecords(v.aead, v.nonce, v.counter, v.chunks)
}
func (v *vault) sign()   { signManifests(v.edKey, v.chunks[:2]) }
func (v *vault) encode() { encodeBlobs(v.chunks) }
func (v *vault) verify() { verifyECDSA(&v.ecKey.PublicKey, v.digest[:], v.ecSig) }

//go:noinline
func hashChunks(chunks [][]byte) [32]byte {
	var sum [32]byte
	for _, c := range chunks {
		h := sha256.New()
		h.Write(sum[:])
		h.Write(c)
		copy(sum[:], h.Sum(nil))
	}
	return sum
}

//go:noinline
func sealRecords(aead cipher.AEAD, nonce []byte, counter uint64, chunks [][]byte) int {
	n := 0
	var out []byte
	for i, c := range chunks {
		nonce[0], nonce[1], nonce[2] = byte(counter), byte(counter>>8), byte(i)
		out = aead.Seal(out[:0], nonce, c, nonce[:4])
		n += len(out)
	}
	return n
}

//go:noinline
func signManifests(key ed25519.PrivateKey, chunks [][]byte) int {
	n := 0
	for _, c := range chunks {
		n += len(ed25519.Sign(key, c[:256]))
	}
	return n
}

//go:noinline
func encodeBlobs(chunks [][]byte) int {
	n := 0
	for _, c := range chunks {
		s := base64.StdEncoding.EncodeToString(c)
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			log.Fatal(err)
		}
		n += len(b) + len(base64.RawURLEncoding.EncodeToString(c[:512]))
	}
	return n
}

//go:noinline
func verifyECDSA(pub *ecdsa.PublicKey, digest, sig []byte) bool {
	if !ecdsa.VerifyASN1(pub, digest, sig) {
		log.Fatal("ecdsa: signature does not verify")
	}
	return true
}
