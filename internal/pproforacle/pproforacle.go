// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Package pproforacle is the tests' oracle for per-function numbers: it runs
// google/pprof itself (`go tool pprof -top -nodecount=0 -nodefraction=0
// -edgefraction=0`, the pprof of the Go toolchain, which works offline; the
// binary `go tool -n pprof` names is run directly) on a profile file and
// parses its report. No emberscope code takes
// part, so a test comparing our flamegraphs with these numbers checks our
// code against google/pprof, not against itself.
//
// # Names
//
// pprof reports one row per function name, every line of every location
// (inlined functions included) counted, as Pyroscope v2.2.1 makes frames.
// Pyroscope differs from pprof only in how it names Go generic functions: it
// removes each generic shape section, so "slices.Sort[go.shape.[]int,go.shape.int]"
// is shown as "slices.Sort" and "main.Map[go.shape.string].func1" as
// "main.Map.func1" (checked on a real Pyroscope v2.2.1 server). This package
// maps pprof's names to Pyroscope's by that documented rule, written here
// (see [PyroscopeName]) and not taken from the code under test:
//
//   - the report's " (inline)" / " (partial-inline)" marks are dropped;
//   - every section that starts with "[go.shape." is removed up to its
//     matching "]" (brackets inside it, as in "go.shape.[]int", are matched);
//   - other brackets stay: runtime/pprof names generic functions of the
//     recording process "slices.Sort[...]", and Pyroscope keeps that name.
//
// When several pprof functions get one Pyroscope name (cmp.Less[go.shape.int]
// and cmp.Less[go.shape.string] are both cmp.Less), their flat values add up,
// and the cum of the merged name is asked of pprof again, with -focus on all
// of the pprof names: the value of the samples whose stacks hold any of them.
package pproforacle

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/pprof/profile"
)

// Func is one function's numbers as pprof reports them.
type Func struct {
	// Flat is the value of the samples whose leaf frame is this function.
	Flat int64
	// Cum is the value of the samples with this function anywhere in the
	// stack, each sample counted once (recursion included).
	Cum int64
}

// Report is what pprof says about one sample type of a profile.
type Report struct {
	// Total is the value of all samples kept by the filters.
	Total int64
	// PercentOf is the total pprof's percentages are of ("of … total" in
	// its header): the whole profile's before -ignore and -hide, or the
	// kept samples' with -relative_percentages.
	PercentOf int64
	// Funcs holds every function, by its Pyroscope name.
	Funcs map[string]Func
	// PprofNames maps each Pyroscope name to the pprof names it stands for.
	PprofNames map[string][]string
}

// Flat returns the flat value of every function with a non-zero one.
func (r Report) Flat() map[string]int64 {
	out := make(map[string]int64, len(r.Funcs))
	for n, f := range r.Funcs {
		if f.Flat != 0 {
			out[n] = f.Flat
		}
	}
	return out
}

// Cum returns the cum value of every function.
func (r Report) Cum() map[string]int64 {
	out := make(map[string]int64, len(r.Funcs))
	for n, f := range r.Funcs {
		out[n] = f.Cum
	}
	return out
}

// Options select what pprof reports on.
type Options struct {
	// SampleType is the sample type to report ("cpu", "inuse_space", ...);
	// "" is pprof's default, the last one.
	SampleType string
	// Labels keeps only the samples whose pprof label key has exactly the
	// given value; the value "" keeps the samples without the label.
	Labels map[string]string
	// LabelIn keeps only the samples whose pprof label key has one of the
	// given values (pprof's -tagfocus=key=^(v1|v2)$, as -tagfocus
	// span_id=... selects spans).
	LabelIn map[string][]string
	// PprofNames keeps pprof's own function names (generic shape sections
	// included), for code that does not rename frames as Pyroscope does.
	PprofNames bool
	// Ignore and Hide are pprof's -ignore and -hide regular expressions,
	// "" for none.
	Ignore, Hide string
	// RelativePercentages is pprof's -relative_percentages.
	RelativePercentages bool
	// Granularity is pprof's -lines or -files ("lines", "files"); "" or
	// "functions" is pprof's default, -functions. See [LinesName] for how
	// the rows are named at lines.
	Granularity string
}

// Top runs google/pprof on the profile file at path and returns its report,
// failing tb when pprof fails or its output cannot be read.
func Top(tb testing.TB, path string, o Options) Report {
	tb.Helper()
	r, err := top(path, o)
	if err != nil {
		tb.Fatalf("pproforacle: %s: %v", path, err)
	}
	return r
}

// TopOfBytes writes a profile's bytes to a temporary file and runs [Top] on it.
func TopOfBytes(tb testing.TB, data []byte, o Options) Report {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "profile.pb.gz")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		tb.Fatalf("pproforacle: %v", err)
	}
	return Top(tb, path, o)
}

var (
	cacheMu sync.Mutex
	cache   = map[string]Report{}
)

func top(path string, o Options) (Report, error) {
	args, err := filterArgs(path, o)
	if err != nil {
		return Report{}, err
	}
	key := fmt.Sprint(append([]string{path}, args...), o.PprofNames)
	cacheMu.Lock()
	r, ok := cache[key]
	cacheMu.Unlock()
	if ok {
		return r, nil
	}
	report, err := runTopReport(path, args)
	if err != nil {
		return Report{}, err
	}
	rows, total, err := parseTop(report)
	if err != nil {
		return Report{}, err
	}
	var percentOf int64
	if m := totalLine.FindStringSubmatch(report); m != nil {
		if percentOf, err = value(m[2]); err != nil {
			return Report{}, fmt.Errorf("total in %q: %v", m[0], err)
		}
	}
	rename := PyroscopeName
	if o.PprofNames {
		rename = func(s string) string { return s }
	}
	if o.Granularity == "lines" {
		rename = LinesName
	}
	r = Report{Total: total, PercentOf: percentOf, Funcs: map[string]Func{}, PprofNames: map[string][]string{}}
	var flatSum int64
	for _, row := range rows {
		flatSum += row.flat
		name := rename(row.name)
		f := r.Funcs[name]
		f.Flat += row.flat
		f.Cum = row.cum
		r.Funcs[name] = f
		r.PprofNames[name] = append(r.PprofNames[name], row.name)
	}
	if flatSum != total {
		return Report{}, fmt.Errorf("pprof's flat values sum to %d, its total is %d", flatSum, total)
	}
	for name, pprofNames := range r.PprofNames {
		if len(pprofNames) < 2 {
			continue
		}
		if o.Granularity == "lines" {
			// -focus selects functions and files, not lines: the cum of
			// lines of several pprof rows is read from pprof's -traces.
			cum, err := tracesCum(path, args, name)
			if err != nil {
				return Report{}, err
			}
			f := r.Funcs[name]
			f.Cum = cum
			r.Funcs[name] = f
			continue
		}
		alts := make([]string, len(pprofNames))
		for i, n := range pprofNames {
			alts[i] = regexp.QuoteMeta(n)
		}
		focused, _, err := runTop(path, append(args, "-focus=^(?:"+strings.Join(alts, "|")+")$"))
		if err != nil {
			return Report{}, err
		}
		var cum int64
		for _, row := range focused {
			cum += row.flat
		}
		f := r.Funcs[name]
		f.Cum = cum
		r.Funcs[name] = f
	}
	cacheMu.Lock()
	cache[key] = r
	cacheMu.Unlock()
	return r, nil
}

// filterArgs turns o into pprof flags. The unit flag makes pprof print
// exact integers in the profile's own unit.
func filterArgs(path string, o Options) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	p, err := profile.Parse(f)
	if err != nil {
		return nil, err
	}
	if len(p.SampleType) == 0 {
		return nil, fmt.Errorf("profile has no sample types")
	}
	st := p.SampleType[len(p.SampleType)-1]
	if o.SampleType != "" {
		found := false
		for _, s := range p.SampleType {
			if s.Type == o.SampleType {
				st, found = s, true
			}
		}
		if !found {
			return nil, fmt.Errorf("profile has no sample type %q", o.SampleType)
		}
	}
	args := []string{"-sample_index=" + st.Type}
	if o.Ignore != "" {
		args = append(args, "-ignore="+o.Ignore)
	}
	if o.Hide != "" {
		args = append(args, "-hide="+o.Hide)
	}
	if o.RelativePercentages {
		args = append(args, "-relative_percentages")
	}
	switch o.Granularity {
	case "", "functions":
	case "lines", "files":
		args = append(args, "-"+o.Granularity)
	default:
		return nil, fmt.Errorf("granularity %q is not functions, lines or files", o.Granularity)
	}
	switch st.Unit {
	case "nanoseconds":
		args = append(args, "-unit=ns")
	case "bytes":
		args = append(args, "-unit=B")
	}
	keys := make([]string, 0, len(o.Labels))
	for k := range o.Labels {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := o.Labels[k]
		if strings.ContainsAny(k, "=,") || strings.Contains(v, ",") {
			return nil, fmt.Errorf("pprof's tag filters cannot express label %q=%q", k, v)
		}
		if v == "" {
			args = append(args, "-tagignore="+k+"=.")
		} else {
			args = append(args, "-tagfocus="+k+"=^"+regexp.QuoteMeta(v)+"$")
		}
	}
	keys = keys[:0]
	for k := range o.LabelIn {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		vs := o.LabelIn[k]
		if len(vs) == 0 || strings.ContainsAny(k, "=,") {
			return nil, fmt.Errorf("pprof's tag filters cannot express label %q in %q", k, vs)
		}
		quoted := make([]string, len(vs))
		for i, v := range vs {
			if v == "" || strings.Contains(v, ",") {
				return nil, fmt.Errorf("pprof's tag filters cannot express label %q=%q", k, v)
			}
			quoted[i] = regexp.QuoteMeta(v)
		}
		args = append(args, "-tagfocus="+k+"=^("+strings.Join(quoted, "|")+")$")
	}
	return args, nil
}

type row struct {
	name      string
	flat, cum int64
}

var totalLine = regexp.MustCompile(`(?m)^Showing nodes accounting for (\S+), [0-9.]+% of (\S+) total`)

var (
	pprofOnce sync.Once
	pprofCmd  []string
)

// pprofCommand is how to run the Go toolchain's pprof: its binary, as
// `go tool -n pprof` names it (which saves starting the go command for every
// report), or `go tool pprof` when that does not work.
func pprofCommand() []string {
	pprofOnce.Do(func() {
		pprofCmd = []string{"go", "tool", "pprof"}
		out, err := exec.Command("go", "tool", "-n", "pprof").Output()
		if err != nil {
			return
		}
		bin := strings.TrimSpace(string(out))
		if st, err := os.Stat(bin); err == nil && !st.IsDir() {
			pprofCmd = []string{bin}
		}
	})
	return pprofCmd
}

// runTop runs pprof -top and parses its rows: "flat flat% sum% cum cum% name".
func runTop(path string, args []string) ([]row, int64, error) {
	report, err := runTopReport(path, args)
	if err != nil {
		return nil, 0, err
	}
	return parseTop(report)
}

// runTopReport runs pprof -top and returns its report.
func runTopReport(path string, args []string) (string, error) {
	base := pprofCommand()
	full := append(append([]string{}, base[1:]...), "-top", "-nodecount=0", "-nodefraction=0", "-edgefraction=0")
	full = append(append(full, args...), path)
	cmd := exec.Command(base[0], full...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("%s %s: %v: %s", base[0], strings.Join(full, " "), err, stderr.String())
	}
	return stdout.String(), nil
}

// parseTop reads the rows and total of a pprof -top report.
func parseTop(report string) ([]row, int64, error) {
	var (
		rows    []row
		total   int64
		inTable bool
		sawHead bool
	)
	for _, line := range strings.Split(report, "\n") {
		if m := totalLine.FindStringSubmatch(line); m != nil {
			v, err := value(m[1]) // "accounting for" what the filters kept
			if err != nil {
				return nil, 0, fmt.Errorf("total in %q: %v", line, err)
			}
			total, sawHead = v, true
			continue
		}
		if strings.HasPrefix(strings.TrimSpace(line), "flat  flat%") {
			inTable = true
			continue
		}
		if !inTable || strings.TrimSpace(line) == "" {
			continue
		}
		fields := strings.Fields(line)
		if len(fields) < 6 {
			return nil, 0, fmt.Errorf("unreadable pprof row %q", line)
		}
		flat, err1 := value(fields[0])
		cum, err2 := value(fields[3])
		if err1 != nil || err2 != nil {
			return nil, 0, fmt.Errorf("unreadable pprof row %q", line)
		}
		// The name is everything after the fifth column; it may hold spaces
		// ("struct { ... }") and ends with pprof's inline mark, if any.
		rest := line
		for i := 0; i < 5; i++ {
			rest = strings.TrimLeft(rest, " ")
			rest = rest[strings.IndexByte(rest, ' ')+1:]
		}
		rows = append(rows, row{name: withoutInlineMark(strings.TrimLeft(rest, " ")), flat: flat, cum: cum})
	}
	if !sawHead {
		if strings.Contains(report, "no samples") || len(rows) == 0 {
			return nil, 0, nil // every sample filtered out
		}
		return nil, 0, fmt.Errorf("no total line in pprof's output:\n%s", report)
	}
	return rows, total, nil
}

// Row is one row of a pprof -top report, its name as pprof prints it (the
// inline mark dropped).
type Row struct {
	Name      string
	Flat, Cum int64
}

// ParseTop reads a pprof -top report printed with an explicit unit (as the
// checked-in reports beside the profiles are): its rows and its total.
func ParseTop(report string) ([]Row, int64, error) {
	rows, total, err := parseTop(report)
	out := make([]Row, len(rows))
	for i, r := range rows {
		out[i] = Row{Name: r.name, Flat: r.flat, Cum: r.cum}
	}
	return out, total, err
}

// Run runs `pprof -top -nodecount=0 -nodefraction=0 -edgefraction=0` with
// the flags o gives on the profile at path and returns its rows as printed.
func Run(tb testing.TB, path string, o Options) ([]Row, int64) {
	tb.Helper()
	args, err := filterArgs(path, o)
	if err != nil {
		tb.Fatalf("pproforacle: %s: %v", path, err)
	}
	rows, total, err := runTop(path, args)
	if err != nil {
		tb.Fatalf("pproforacle: %s: %v", path, err)
	}
	out := make([]Row, len(rows))
	for i, r := range rows {
		out[i] = Row{Name: r.name, Flat: r.flat, Cum: r.cum}
	}
	return out, total
}

// tracesCum is the value of the samples of pprof's -traces report (at lines)
// with a frame named name (by [LinesName]) anywhere in their stack.
func tracesCum(path string, args []string, name string) (int64, error) {
	base := pprofCommand()
	full := append(append([]string{}, base[1:]...), "-traces")
	full = append(append(full, args...), path)
	cmd := exec.Command(base[0], full...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return 0, fmt.Errorf("%s %s: %v: %s", base[0], strings.Join(full, " "), err, stderr.String())
	}
	// A trace is a separator line, label lines ("  category:  parse"), a
	// line holding the value and the leaf frame, then one frame per line.
	var (
		cum, v    int64
		haveValue bool
		holds     bool
		traces    int
	)
	end := func() {
		if haveValue && holds {
			cum += v
		}
		haveValue, holds = false, false
	}
	for _, line := range strings.Split(stdout.String(), "\n") {
		if strings.HasPrefix(line, "-----------+") {
			end()
			traces++
			continue
		}
		if traces == 0 || strings.TrimSpace(line) == "" {
			continue
		}
		fields := strings.Fields(line)
		frame := strings.TrimSpace(line)
		if !haveValue {
			if strings.HasSuffix(fields[0], ":") {
				continue // a label line
			}
			x, err := value(fields[0])
			if err != nil {
				return 0, fmt.Errorf("unreadable pprof trace line %q", line)
			}
			v, haveValue = x, true
			frame = strings.TrimSpace(strings.TrimPrefix(strings.TrimLeft(line, " "), fields[0]))
		}
		if LinesName(frame) == name {
			holds = true
		}
	}
	end()
	return cum, nil
}

// value parses a pprof value printed with an explicit unit: "330000000ns",
// "4194304B", "33".
func value(s string) (int64, error) {
	num := strings.TrimRightFunc(s, func(r rune) bool { return (r < '0' || r > '9') && r != '.' })
	f, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return 0, err
	}
	if f != math.Trunc(f) {
		return 0, fmt.Errorf("value %s is not a whole number of the unit", s)
	}
	return int64(f), nil
}

// withoutInlineMark drops the mark pprof's report puts after an inlined function.
func withoutInlineMark(name string) string {
	return strings.TrimSuffix(strings.TrimSuffix(name, " (inline)"), " (partial-inline)")
}

// LinesName is the name of a row of pprof's -lines report as a flamegraph
// at lines shows it: "main.compress /src/app/workloads.go:243" becomes
// "main.compress workloads.go:243". The row is split at its last space into
// the function and "file:line"; the function is renamed as [PyroscopeName]
// does and the file keeps only its last element, as pprof's own graph view
// labels its nodes. At files the rows keep pprof's names (the full path):
// pprof reports one row per file and function start line, and the rows of
// one file are merged as the package comment says (flat values added, cum
// asked again with -focus on the file).
func LinesName(pprofName string) string {
	name := withoutInlineMark(pprofName)
	i := strings.LastIndexByte(name, ' ')
	if i < 0 {
		return PyroscopeName(name)
	}
	fn, loc := name[:i], name[i+1:]
	if j := strings.LastIndexAny(loc, `/\`); j >= 0 {
		loc = loc[j+1:]
	}
	return PyroscopeName(fn) + " " + loc
}

// PyroscopeName is the name Pyroscope v2.2.1 shows for a row of pprof's
// report: the inline mark dropped and every "[go.shape." section removed
// (the package comment gives the rule and where it comes from).
func PyroscopeName(pprofName string) string {
	name := withoutInlineMark(pprofName)
	const marker = "[go.shape."
	var b strings.Builder
	for {
		i := strings.Index(name, marker)
		if i < 0 {
			b.WriteString(name)
			return b.String()
		}
		b.WriteString(name[:i])
		depth, j := 0, i
		for ; j < len(name); j++ {
			if name[j] == '[' {
				depth++
			} else if name[j] == ']' {
				depth--
				if depth == 0 {
					break
				}
			}
		}
		if j >= len(name) { // unbalanced: keep the rest as it is
			b.WriteString(name[i:])
			return b.String()
		}
		name = name[j+1:]
	}
}

// Output runs the Go toolchain's pprof with args on the profile file at path
// and returns what it prints (a report checked in beside a profile is
// compared with it).
func Output(tb testing.TB, path string, args ...string) string {
	tb.Helper()
	base := pprofCommand()
	full := append(append(append([]string{}, base[1:]...), args...), path)
	cmd := exec.Command(base[0], full...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		tb.Fatalf("%s %s: %v: %s", base[0], strings.Join(full, " "), err, stderr.String())
	}
	return stdout.String()
}
