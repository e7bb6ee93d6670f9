package main

import (
	"bytes"
	"compress/flate"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// cpuProfiles are the CPU profiles written, with what the tests expect of them.
var cpuProfiles = []cpuProfile{
	// categories.cpu: parsing, hashing and sorting under pprof label
	// category=parse|hash|sort, and a 12-deep recursion ending in hashing
	// without labels. Sorting runs the generic slices.Sort.
	{file: "categories.cpu.pb.gz", slice: 20 * time.Millisecond, rounds: 150, workloads: []workload{
		{[]string{"category", "parse"}, "burnParse", until(burnParse)},
		{[]string{"category", "hash"}, "burnHash", until(burnHash)},
		{[]string{"category", "sort"}, "burnSort", until(burnSort)},
		{nil, "recurse", until(func() { recurse(12) })},
	}},
	// routes-1.cpu and routes-2.cpu: a shop's request handlers under pprof
	// label route=/checkout|/search, and background work without the label;
	// two recordings of the same code, for tests that need two profiles.
	{file: "routes-1.cpu.pb.gz", slice: 20 * time.Millisecond, rounds: 100, workloads: routes},
	{file: "routes-2.cpu.pb.gz", slice: 20 * time.Millisecond, rounds: 100, workloads: routes},
	// virtual.cpu: labels for virtual frames: a category split by "::",
	// values on two labels, a value without the second label, the second
	// label without the first, and no labels.
	{file: "virtual.cpu.pb.gz", slice: 20 * time.Millisecond, rounds: 50, workloads: []workload{
		{[]string{"category", "observability :: metrics", "route", "/metrics"}, "burnMetrics", burnMetrics},
		{[]string{"category", "observability :: logs", "route", "/logs"}, "burnLogs", burnLogs},
		{[]string{"category", "storage", "route", "/write"}, "burnStorage", burnStorage},
		{[]string{"category", "api", "route", "/read"}, "burnAPIRead", burnAPIRead},
		{[]string{"category", "api"}, "burnAPIInternal", burnAPIInternal},
		{[]string{"route", "/bg"}, "burnBackground", burnBackground},
		{nil, "burnNoLabels", burnNoLabels},
	}},
	// browser.cpu: what the browser tests show: handleRequest (parseJSON and
	// hashBlocks under it) for route=/api/orders, compress for route=/api/archive.
	{file: "browser.cpu.pb.gz", slice: 15 * time.Millisecond, rounds: 100, workloads: []workload{
		{[]string{"route", "/api/orders"}, "handleRequest", func(d time.Duration) { handleRequest(2 * d) }},
		{[]string{"route", "/api/archive"}, "compress", compress},
	}},
}

var routes = []workload{
	{[]string{"route", "/checkout"}, "burnCheckout", burnCheckout},
	{[]string{"route", "/search"}, "burnSearch", burnSearch},
	{nil, "burnUnlabelled", burnUnlabelled},
}

// sink keeps results observable so that no work is optimised away.
var sink int

// until runs f again and again for d on the wall clock.
func until(f func()) func(time.Duration) {
	return func(d time.Duration) {
		for end := time.Now().Add(d); time.Now().Before(end); {
			f()
		}
	}
}

var document = []byte(`{"id":"ord-1842","items":[{"sku":"A-100","qty":2,"price":19.99},{"sku":"B-220","qty":1,"price":5.5},` +
	`{"sku":"C-310","qty":7,"price":0.25}],"customer":{"name":"Ada","tags":["vip","eu"]},"paid":true,"note":null}`)

//go:noinline
func burnParse() {
	var v map[string]any
	if err := json.Unmarshal(document, &v); err != nil {
		panic(err)
	}
	for _, s := range []string{"19.99", "5.5", "0.25", "1842", "-7e3"} {
		f, _ := strconv.ParseFloat(s, 64)
		sink += int(f)
	}
	sink += len(v)
}

var block = bytes.Repeat([]byte("emberscope"), 400)

//go:noinline
func burnHash() {
	s := sha256.Sum256(block)
	h := fnv.New64a()
	_, _ = h.Write(block)
	sink += int(s[0]) + int(h.Sum64()&1)
}

//go:noinline
func burnSort() {
	xs := make([]int, 2000)
	for i := range xs {
		xs[i] = (i * 7919) % len(xs)
	}
	slices.Sort(xs)
	words := strings.Fields("pear fig apple kiwi lime plum date grape melon peach cherry mango")
	sort.Strings(words)
	sink += xs[0] + len(words[0])
}

//go:noinline
func recurse(depth int) {
	if depth == 0 {
		burnHash()
		return
	}
	recurse(depth - 1)
	sink++
}

type order struct {
	ID    string  `json:"id"`
	Items []item  `json:"items"`
	Total float64 `json:"total"`
}

type item struct {
	SKU   string  `json:"sku"`
	Qty   int     `json:"qty"`
	Price float64 `json:"price"`
}

//go:noinline
func burnCheckout(d time.Duration) {
	o := order{ID: "ord-1842", Items: []item{{"A-100", 2, 19.99}, {"B-220", 1, 5.5}, {"C-310", 7, 0.25}}}
	for end := time.Now().Add(d); time.Now().Before(end); {
		encodeOrder(&o)
	}
}

//go:noinline
func encodeOrder(o *order) {
	o.Total = 0
	for _, it := range o.Items {
		o.Total += float64(it.Qty) * it.Price
	}
	b, err := json.Marshal(o)
	if err != nil {
		panic(err)
	}
	sum := sha256.Sum256(b)
	sink += int(sum[0])
}

var catalog = strings.Repeat("red shoes size 42; blue shirt size M; green socks size 40; black coat size L;\n", 20)
var query = regexp.MustCompile(`(blue|green) \w+ size (\d+|[SML])`)

//go:noinline
func burnSearch(d time.Duration) {
	for end := time.Now().Add(d); time.Now().Before(end); {
		sink += len(query.FindAllStringIndex(catalog, -1))
	}
}

//go:noinline
func burnUnlabelled(d time.Duration) {
	for end := time.Now().Add(d); time.Now().Before(end); {
		compressLog()
	}
}

//go:noinline
func compressLog() {
	var buf bytes.Buffer
	w, _ := flate.NewWriter(&buf, flate.DefaultCompression)
	_, _ = w.Write([]byte(catalog))
	_ = w.Close()
	sink += buf.Len()
}

//go:noinline
func burnMetrics(d time.Duration) {
	for end := time.Now().Add(d); time.Now().Before(end); {
		for i := 0; i < 200; i++ {
			sink += len(strconv.FormatFloat(float64(i)*1.5, 'g', -1, 64))
		}
	}
}

//go:noinline
func burnLogs(d time.Duration) {
	for end := time.Now().Add(d); time.Now().Before(end); {
		sink += len(fmt.Sprintf("level=info msg=%q n=%d", "request done", sink))
	}
}

//go:noinline
func burnStorage(d time.Duration) { until(compressLog)(d) }

//go:noinline
func burnAPIRead(d time.Duration) { until(burnParse)(d) }

//go:noinline
func burnAPIInternal(d time.Duration) { until(burnHash)(d) }

//go:noinline
func burnBackground(d time.Duration) { until(burnSort)(d) }

//go:noinline
func burnNoLabels(d time.Duration) {
	for end := time.Now().Add(d); time.Now().Before(end); {
		sink += len(query.FindAllStringIndex(catalog, -1))
	}
}

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

// keep holds the heap workload's allocations, so they are in use.
var keep [][]byte

// allocRound allocates one 4 MiB buffer in allocLarge, 200 buffers of 512
// bytes in allocSmall and decodes a JSON document in decodeOrders; all of it
// stays reachable.
func allocRound() {
	keep = append(keep, allocLarge())
	for i := 0; i < 200; i++ {
		keep = append(keep, allocSmall())
	}
	decodeOrders()
}

//go:noinline
func allocLarge() []byte { return make([]byte, 4<<20) }

//go:noinline
func allocSmall() []byte { return make([]byte, 512) }

var orders []map[string]any

//go:noinline
func decodeOrders() {
	for i := 0; i < 50; i++ {
		var v map[string]any
		if err := json.Unmarshal(document, &v); err != nil {
			panic(err)
		}
		orders = append(orders, v)
	}
}
