// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package pproforacle

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/google/pprof/profile"

	"github.com/emberscope/emberscope/internal/fixtures"
)

// walk computes flat and cum per Pyroscope name straight from the samples
// (google/pprof's parser, every line of every location a frame), to check
// that this package reads pprof's report right.
func walk(t *testing.T, path, sampleType string, keep func(*profile.Sample) bool) (map[string]Func, int64) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p, err := profile.Parse(f)
	if err != nil {
		t.Fatal(err)
	}
	idx := len(p.SampleType) - 1
	for i, st := range p.SampleType {
		if st.Type == sampleType {
			idx = i
		}
	}
	out := map[string]Func{}
	var total int64
	for _, s := range p.Sample {
		if !keep(s) {
			continue
		}
		v := s.Value[idx]
		total += v
		seen := map[string]bool{}
		for li, loc := range s.Location {
			for ln := range loc.Line {
				name := PyroscopeName(loc.Line[ln].Function.Name)
				fn := out[name]
				if li == 0 && ln == 0 {
					fn.Flat += v
				}
				if !seen[name] {
					seen[name] = true
					fn.Cum += v
				}
				out[name] = fn
			}
		}
	}
	for n, fn := range out {
		if fn.Flat == 0 && fn.Cum == 0 {
			delete(out, n)
		}
	}
	return out, total
}

func TestTopReadsPprofsReport(t *testing.T) {
	cases := []struct{ file, sampleType string }{
		{"parca/pushed-profiles/labeled.cpu.redated.pb.gz", "cpu"},
		{"parca/pushed-profiles/labeled.cpu.redated.pb.gz", "samples"},
		{"parca/pushed-profiles/bench-sort.cpu.redated.pb.gz", "cpu"},
		{"pyroscope/pushed-profiles/bench-regexp.mem.redated.pb.gz", "alloc_space"},
		{"pyroscope/pushed-profiles/bench-regexp.mem.redated.pb.gz", "inuse_objects"},
	}
	for _, c := range cases {
		t.Run(c.file+"/"+c.sampleType, func(t *testing.T) {
			path := fixtures.Path(t, c.file)
			got := Top(t, path, Options{SampleType: c.sampleType})
			want, total := walk(t, path, c.sampleType, func(*profile.Sample) bool { return true })
			if got.Total != total {
				t.Errorf("total %d, samples sum to %d", got.Total, total)
			}
			for name, w := range want {
				if got.Funcs[name] != w {
					t.Errorf("%s: pprof says %+v, the samples %+v", name, got.Funcs[name], w)
				}
			}
			for name := range got.Funcs {
				if _, ok := want[name]; !ok {
					t.Errorf("pprof reports %s, which no sample holds", name)
				}
			}
		})
	}
}

func TestTopFiltersByLabel(t *testing.T) {
	path := fixtures.Path(t, "parca/pushed-profiles/labeled.cpu.redated.pb.gz")
	all := Top(t, path, Options{SampleType: "cpu"})
	var sum int64
	for _, v := range []string{"authentication", "observability :: metrics", "observability :: tracing", ""} {
		r := Top(t, path, Options{SampleType: "cpu", Labels: map[string]string{"category": v}})
		want, total := walk(t, path, "cpu", func(s *profile.Sample) bool {
			got := ""
			if vs := s.Label["category"]; len(vs) > 0 {
				got = vs[0]
			}
			return got == v
		})
		if r.Total != total || total == 0 {
			t.Errorf("category %q: pprof total %d, samples %d", v, r.Total, total)
		}
		for name, w := range want {
			if r.Funcs[name] != w {
				t.Errorf("category %q, %s: pprof %+v, samples %+v", v, name, r.Funcs[name], w)
			}
		}
		sum += r.Total
	}
	if sum != all.Total {
		t.Errorf("the categories sum to %d, the profile to %d", sum, all.Total)
	}
}

func TestGenericNamesMerge(t *testing.T) {
	path := fixtures.Path(t, "parca/pushed-profiles/bench-sort.cpu.redated.pb.gz")
	r := Top(t, path, Options{SampleType: "cpu"})
	if got := r.PprofNames["cmp.Less"]; len(got) < 2 {
		t.Fatalf("cmp.Less stands for %v; want cmp.Less[go.shape.int] and [go.shape.string]", got)
	}
	for name := range r.Funcs {
		if PyroscopeName(name) != name {
			t.Errorf("%s still holds a shape section", name)
		}
	}
}

func TestPyroscopeName(t *testing.T) {
	for in, want := range map[string]string{
		"slices.Sort[go.shape.[]int,go.shape.int]":                                              "slices.Sort",
		"cmp.Less[go.shape.int] (inline)":                                                       "cmp.Less",
		"main.Map[go.shape.string,go.shape.int].func1 (partial-inline)":                         "main.Map.func1",
		"slices.SortFunc[go.shape.[]encoding/json.reflectWithString,go.shape.struct { a int }]": "slices.SortFunc",
		"slices.Sort[...]":   "slices.Sort[...]",
		"main.(*T[...]).Get": "main.(*T[...]).Get",
		"runtime.main":       "runtime.main",
	} {
		if got := PyroscopeName(in); got != want {
			t.Errorf("PyroscopeName(%q) = %q, want %q", in, got, want)
		}
	}
}

// walkNamed computes flat and cum per frame name straight from the samples
// (google/pprof's parser, every line of every location a frame), naming each
// line with name.
func walkNamed(t *testing.T, path string, name func(profile.Line) string) (map[string]Func, int64) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p, err := profile.Parse(f)
	if err != nil {
		t.Fatal(err)
	}
	idx := len(p.SampleType) - 1
	out := map[string]Func{}
	var total int64
	for _, s := range p.Sample {
		v := s.Value[idx]
		total += v
		seen := map[string]bool{}
		for li, loc := range s.Location {
			for ln := range loc.Line {
				n := name(loc.Line[ln])
				fn := out[n]
				if li == 0 && ln == 0 {
					fn.Flat += v
				}
				if !seen[n] {
					seen[n] = true
					fn.Cum += v
				}
				out[n] = fn
			}
		}
	}
	for n, fn := range out {
		if fn.Flat == 0 && fn.Cum == 0 {
			delete(out, n)
		}
	}
	return out, total
}

// TestLinesAndFiles checks the -lines and -files reports (generic functions
// whose rows merge at lines, files whose rows merge) against the samples.
func TestLinesAndFiles(t *testing.T) {
	path := fixtures.ProfilePath(t, "categories.cpu.pb.gz")
	lines := func(l profile.Line) string {
		return PyroscopeName(l.Function.Name) + " " + filepath.Base(l.Function.Filename) + ":" + strconv.FormatInt(l.Line, 10)
	}
	files := func(l profile.Line) string { return l.Function.Filename }
	for g, name := range map[string]func(profile.Line) string{"lines": lines, "files": files} {
		want, total := walkNamed(t, path, name)
		r := Top(t, path, Options{Granularity: g})
		if r.Total != total {
			t.Errorf("%s: total %d, samples %d", g, r.Total, total)
		}
		if len(r.Funcs) != len(want) {
			t.Errorf("%s: %d rows, the samples have %d names", g, len(r.Funcs), len(want))
		}
		for n, w := range want {
			if r.Funcs[n] != w {
				t.Errorf("%s %s: pprof %+v, samples %+v", g, n, r.Funcs[n], w)
			}
		}
	}
	merged := 0
	for _, names := range Top(t, path, Options{Granularity: "lines"}).PprofNames {
		if len(names) > 1 {
			merged++
		}
	}
	if merged == 0 {
		t.Error("no line merges pprof rows: the -traces path is not exercised")
	}
}

// TestCheckedInReports checks that the pprof reports checked in beside
// browser.cpu.pb.gz (read by the browser tests) are what pprof prints, rows
// of one name compared in any order (pprof prints them in no fixed order).
func TestCheckedInReports(t *testing.T) {
	path := fixtures.ProfilePath(t, "browser.cpu.pb.gz")
	byName := func(rs []Row) {
		sort.Slice(rs, func(a, b int) bool {
			if rs[a].Name != rs[b].Name {
				return rs[a].Name < rs[b].Name
			}
			if rs[a].Cum != rs[b].Cum {
				return rs[a].Cum < rs[b].Cum
			}
			return rs[a].Flat < rs[b].Flat
		})
	}
	for _, g := range []string{"lines", "files"} {
		text := fixtures.Read(t, "profiles/browser.cpu."+g+".txt")
		rows, total, err := ParseTop(string(text))
		if err != nil {
			t.Fatal(err)
		}
		fresh, freshTotal := Run(t, path, Options{Granularity: g})
		if total != freshTotal || len(rows) != len(fresh) {
			t.Fatalf("%s: checked-in report has %d rows of %d, pprof prints %d of %d", g, len(rows), total, len(fresh), freshTotal)
		}
		byName(rows)
		byName(fresh)
		for i := range rows {
			if rows[i] != fresh[i] {
				t.Errorf("%s row %d: checked in %+v, pprof %+v", g, i, rows[i], fresh[i])
			}
		}
	}
}

// TestCheckedInGraphs checks that the call graphs and traces checked in beside
// browser.cpu.pb.gz and virtual.cpu.pb.gz (read by the panel's call graph
// tests) are what pprof prints for them.
func TestCheckedInGraphs(t *testing.T) {
	for _, name := range []string{"browser", "virtual"} {
		path := fixtures.ProfilePath(t, name+".cpu.pb.gz")
		for file, args := range map[string][]string{
			name + ".cpu.graph.dot":  {"-dot", "-taghide=.", "-unit=ns"},
			name + ".cpu.traces.txt": {"-traces", "-taghide=.", "-unit=ns"},
		} {
			want := string(fixtures.Read(t, "profiles/"+file))
			if got := Output(t, path, args...); got != want {
				t.Errorf("profiles/%s is not what pprof %v prints now: run it again (internal/fixtures/profiles/README.md)", file, args)
			}
		}
	}
	// the diff of the two route recordings: its arrows compared as a set, as pprof writes arrows of
	// equal and opposite weights in no fixed order
	base := fixtures.ProfilePath(t, "routes-1.cpu.pb.gz")
	graph := Output(t, fixtures.ProfilePath(t, "routes-2.cpu.pb.gz"), "-dot", "-taghide=.", "-unit=ns", "-diff_base="+base)
	if got, want := dotLines(graph), dotLines(string(fixtures.Read(t, "profiles/routes.diff.graph.dot"))); !slices.Equal(got, want) {
		t.Errorf("profiles/routes.diff.graph.dot is not what pprof -diff_base prints now: run it again (internal/fixtures/profiles/README.md)")
	}
	for _, name := range []string{"routes-1", "routes-2"} {
		want := string(fixtures.Read(t, "profiles/"+name+".cpu.traces.txt"))
		if got := Output(t, fixtures.ProfilePath(t, name+".cpu.pb.gz"), "-traces", "-taghide=.", "-unit=ns"); got != want {
			t.Errorf("profiles/%s.cpu.traces.txt is not what pprof -traces prints now", name)
		}
	}
}

// dotLines is a -dot graph's lines with its arrows sorted.
func dotLines(graph string) []string {
	var lines, arrows []string
	for _, l := range strings.Split(graph, "\n") {
		if strings.HasPrefix(l, "N") && strings.Contains(l, " -> ") {
			arrows = append(arrows, l)
			continue
		}
		lines = append(lines, l)
	}
	sort.Strings(arrows)
	return append(lines, arrows...)
}

// TestCheckedInTopReports checks that the -top reports checked in beside
// browser.cpu.pb.gz and virtual.cpu.pb.gz (read by the panel's inverted view,
// ignore and hide tests and the browser test of them) are what pprof prints,
// rows and the total its percentages are of.
func TestCheckedInTopReports(t *testing.T) {
	for _, c := range []struct {
		file, profile string
		o             Options
	}{
		{"browser.cpu.top.txt", "browser.cpu.pb.gz", Options{}},
		{"virtual.cpu.top.txt", "virtual.cpu.pb.gz", Options{}},
		{"browser.cpu.ignore-sha256.top.txt", "browser.cpu.pb.gz", Options{Ignore: "sha256"}},
		{"browser.cpu.hide-runtime.top.txt", "browser.cpu.pb.gz", Options{Hide: `^runtime\.`}},
		{"browser.cpu.hide-runtime-files.top.txt", "browser.cpu.pb.gz", Options{Hide: "runtime"}},
	} {
		text := string(fixtures.Read(t, "profiles/"+c.file))
		rows, total, err := ParseTop(text)
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		fresh, freshTotal := Run(t, fixtures.ProfilePath(t, c.profile), c.o)
		if total != freshTotal || !slices.Equal(rows, fresh) {
			t.Errorf("%s: checked-in report has %d rows of %d, pprof prints %d of %d", c.file, len(rows), total, len(fresh), freshTotal)
		}
		whole := Top(t, fixtures.ProfilePath(t, c.profile), c.o).PercentOf
		if m := totalLine.FindStringSubmatch(text); m == nil || m[2] != strconv.FormatInt(whole, 10)+"ns" {
			t.Errorf("%s: checked-in report's percentages are not of pprof's %d", c.file, whole)
		}
	}
}

// TestParseTracesReadsWideValues: a value wider than pprof's 10 columns
// pushes its frame right; the value and the leaf frame are still read apart.
func TestParseTracesReadsWideValues(t *testing.T) {
	report := "-----------+-------\n" +
		"130000000ns   runtime.memmove\n" +
		"             bytes.Repeat\n" +
		"-----------+-------\n" +
		"     200ns   main.leaf\n" +
		"             main.main\n"
	got, err := ParseTraces(report)
	if err != nil {
		t.Fatal(err)
	}
	want := []Trace{{Value: 130000000, Stack: []string{"bytes.Repeat", "runtime.memmove"}}, {Value: 200, Stack: []string{"main.main", "main.leaf"}}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("ParseTraces = %v, want %v", got, want)
	}
}
