// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package fileformat

import (
	"bytes"
	"compress/gzip"
	"strings"
	"testing"

	"github.com/google/pprof/profile"

	"github.com/emberscope/emberscope/internal/fixtures"
	"github.com/emberscope/emberscope/internal/pproforacle"
)

func total(p *profile.Profile, i int) int64 {
	var sum int64
	for _, s := range p.Sample {
		sum += s.Value[i]
	}
	return sum
}

func gz(t *testing.T, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// Every sample type of real profiles, gzipped or not, totals what
// `go tool pprof -top` says, and the pprof labels are kept.
func TestPprofTotalsArePprofs(t *testing.T) {
	for _, name := range []string{"categories.cpu.pb.gz", "heap-1.pb.gz", "routes-2.cpu.pb.gz"} {
		t.Run(name, func(t *testing.T) {
			data := fixtures.Profile(t, name)
			f, err := Decode(name, data, DefaultLimits())
			if err != nil {
				t.Fatal(err)
			}
			if f.Format != FormatPprof {
				t.Fatalf("format %s, want pprof", f.Format)
			}
			plain, err := Decode(name, gunzipped(t, data), DefaultLimits())
			if err != nil {
				t.Fatal(err)
			}
			for i, st := range f.Profile.SampleType {
				want := pproforacle.Top(t, fixtures.ProfilePath(t, name), pproforacle.Options{SampleType: st.Type, PprofNames: true}).Total
				if got := total(f.Profile, i); got != want {
					t.Errorf("%s total %d, pprof says %d", st.Type, got, want)
				}
				if got := total(plain.Profile, i); got != want {
					t.Errorf("%s total of the gunzipped file %d, pprof says %d", st.Type, got, want)
				}
			}
		})
	}
	f, err := Decode("categories", fixtures.Profile(t, "categories.cpu.pb.gz"), DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, s := range f.Profile.Sample {
		for _, v := range s.Label["category"] {
			seen[v] = true
		}
	}
	if !seen["hash"] || !seen["parse"] || !seen["sort"] {
		t.Errorf("category label values %v, want hash, parse and sort", seen)
	}
}

func gunzipped(t *testing.T, b []byte) []byte {
	t.Helper()
	out, err := gunzip("x", b, 0)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestCollapsedSumsItsLines(t *testing.T) {
	text := "main;parse;json.Unmarshal 30\nmain;hash 12\n\nmain;parse 5\nmain;hash 8\n"
	for _, data := range [][]byte{[]byte(text), gz(t, []byte(text))} {
		f, err := Decode("stacks.txt", data, DefaultLimits())
		if err != nil {
			t.Fatal(err)
		}
		if f.Format != FormatCollapsed {
			t.Fatalf("format %s, want collapsed", f.Format)
		}
		if got := total(f.Profile, 0); got != 55 {
			t.Errorf("total %d, want 55", got)
		}
		flat := map[string]int64{}
		for _, s := range f.Profile.Sample {
			flat[s.Location[0].Line[0].Function.Name] += s.Value[0]
		}
		want := map[string]int64{"json.Unmarshal": 30, "hash": 20, "parse": 5}
		for k, v := range want {
			if flat[k] != v {
				t.Errorf("flat %s = %d, want %d (all: %v)", k, flat[k], v, flat)
			}
		}
		if root := f.Profile.Sample[0].Location[len(f.Profile.Sample[0].Location)-1].Line[0].Function.Name; root != "main" {
			t.Errorf("root frame %q, want main", root)
		}
	}
}

// A DevTools profile: (root) → main → {work, (idle)}; sample i lasts until
// sample i+1, the last until endTime.
const devtools = `{"nodes":[
 {"id":1,"callFrame":{"functionName":"(root)","scriptId":"0","url":"","lineNumber":-1,"columnNumber":-1},"hitCount":0,"children":[2,4]},
 {"id":2,"callFrame":{"functionName":"main","scriptId":"1","url":"file:///app.js","lineNumber":0,"columnNumber":0},"hitCount":0,"children":[3,5]},
 {"id":3,"callFrame":{"functionName":"work","scriptId":"1","url":"file:///app.js","lineNumber":9,"columnNumber":2},"hitCount":2},
 {"id":5,"callFrame":{"functionName":"work","scriptId":"1","url":"file:///lib.js","lineNumber":3,"columnNumber":0},"hitCount":1},
 {"id":4,"callFrame":{"functionName":"(idle)","scriptId":"0","url":"","lineNumber":-1,"columnNumber":-1},"hitCount":1}],
 "startTime":1000,"endTime":2000,"samples":[3,3,4,5],"timeDeltas":[100,200,300,50]}`

func TestCPUProfileSampleLastsUntilTheNext(t *testing.T) {
	f, err := Decode("app.cpuprofile", []byte(devtools), DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	if f.Format != FormatCPUProfile {
		t.Fatalf("format %s, want cpuprofile", f.Format)
	}
	// times 1100, 1300, 1600, 1650; durations 200, 300, 50, 350 µs.
	type key struct{ fn, file string }
	self := map[key]int64{}
	count := map[key]int64{}
	for _, s := range f.Profile.Sample {
		fn := s.Location[0].Line[0].Function
		self[key{fn.Name, fn.Filename}] += s.Value[1]
		count[key{fn.Name, fn.Filename}] += s.Value[0]
		if root := s.Location[len(s.Location)-1].Line[0].Function.Name; root == "(root)" {
			t.Errorf("(root) is a frame of %v", s.Location)
		}
	}
	want := map[key]int64{
		{"work", "file:///app.js"}: 500_000,
		{"(idle)", ""}:             50_000,
		{"work", "file:///lib.js"}: 350_000,
	}
	for k, v := range want {
		if self[k] != v {
			t.Errorf("self %v = %d ns, want %d (all: %v)", k, self[k], v, self)
		}
	}
	if count[key{"work", "file:///app.js"}] != 2 {
		t.Errorf("samples of work in app.js = %d, want 2", count[key{"work", "file:///app.js"}])
	}
	if got := total(f.Profile, 1); got != 900_000 {
		t.Errorf("cpu total %d ns, want 900000 (endTime - first sample)", got)
	}
}

func TestRefusals(t *testing.T) {
	small := DefaultLimits()
	small.MaxDecodedBytes = 1 << 20
	bomb := gz(t, make([]byte, 8<<20))
	var deep strings.Builder
	for range 50 {
		deep.WriteString("f;")
	}
	deep.WriteString("leaf 1\n")
	for _, c := range []struct {
		name, data string
		lim        Limits
		want       string
		tooLarge   bool
	}{
		{"empty", "", DefaultLimits(), "the file is empty", false},
		{"blank", "  \n\n", DefaultLimits(), "the file is empty", false},
		{"garbage", "\x00\x01\x02 this is no profile \xff\xfe", DefaultLimits(), "not a profile: not pprof", false},
		{"text", "hello world\n", DefaultLimits(), "not a profile", false},
		{"bad line", "a;b 10\nc;d ten\n", DefaultLimits(), "line 2: the count \"ten\"", false},
		{"bad utf8", "a;b 10\na;\xff\xfe 10\n", DefaultLimits(), "line 2 is not valid UTF-8", false},
		{"empty frame", "a;;b 10\n", DefaultLimits(), "line 1: frame 2 has an empty name", false},
		{"json", `{"nodes": 3}`, DefaultLimits(), "not a .cpuprofile", false},
		{"no deltas", `{"nodes":[{"id":1,"callFrame":{"functionName":"(root)"}}],"startTime":1,"endTime":2,"samples":[1]}`, DefaultLimits(), "1 samples but 0 timeDeltas", false},
		{"unknown node", `{"nodes":[{"id":1,"callFrame":{"functionName":"(root)"}}],"startTime":1,"endTime":2,"samples":[7],"timeDeltas":[1]}`, DefaultLimits(), "sample 0 names node 7", false},
		{"cycle", `{"nodes":[{"id":1,"callFrame":{"functionName":"a"},"children":[2]},{"id":2,"callFrame":{"functionName":"b"},"children":[1]}],"startTime":1,"endTime":2,"samples":[1],"timeDeltas":[1]}`, DefaultLimits(), "cycle", false},
		{"gzip bomb", string(bomb), small, "more than 1048576 bytes once decompressed", true},
		{"broken gzip", string(bomb[:len(bomb)/2]), DefaultLimits(), "invalid gzip data", false},
		{"over the file limit", strings.Repeat("a 1\n", 1000), Limits{MaxFileBytes: 1000}, "4000 bytes, more than the limit of 1000", true},
		{"too many samples", strings.Repeat("a 1\n", 10), Limits{MaxSamples: 5}, "10 samples, more than the limit of 5", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Decode(c.name, []byte(c.data), c.lim)
			if err == nil {
				t.Fatalf("decoded, want an error saying %q", c.want)
			}
			if !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), c.name+": ") {
				t.Errorf("error %q, want %q after the file's name", err, c.want)
			}
			if IsTooLarge(err) != c.tooLarge {
				t.Errorf("IsTooLarge = %v, want %v", !c.tooLarge, c.tooLarge)
			}
		})
	}
	f, err := Decode("deep", []byte(deep.String()), Limits{MaxStackDepth: 10})
	if err != nil {
		t.Fatal(err)
	}
	s := f.Profile.Sample[0]
	if len(s.Location) != 10 || f.TruncatedStacks != 1 || s.Location[9].Line[0].Function.Name != "f" {
		t.Errorf("deep stack kept %d frames (%d truncated), want the 10 root-side ones", len(s.Location), f.TruncatedStacks)
	}
}

// A pprof whose strings are not UTF-8 is refused, naming what holds them.
func TestPprofWithInvalidUTF8(t *testing.T) {
	fn := &profile.Function{ID: 1, Name: "main.\xff\xfe"}
	loc := &profile.Location{ID: 1, Line: []profile.Line{{Function: fn}}}
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "cpu", Unit: "nanoseconds"}},
		Sample:     []*profile.Sample{{Location: []*profile.Location{loc}, Value: []int64{1}}},
		Location:   []*profile.Location{loc},
		Function:   []*profile.Function{fn},
	}
	var buf bytes.Buffer
	if err := p.Write(&buf); err != nil {
		t.Fatal(err)
	}
	_, err := Decode("bad.pb.gz", buf.Bytes(), DefaultLimits())
	if err == nil || !strings.Contains(err.Error(), "bad.pb.gz: function 1:") || !strings.Contains(err.Error(), "not valid UTF-8") {
		t.Errorf("error %v, want it to name function 1 as not UTF-8", err)
	}
}
