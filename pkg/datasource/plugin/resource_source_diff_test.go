// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"golang.org/x/mod/module"
	modzip "golang.org/x/mod/zip"

	"github.com/emberscope/emberscope/internal/fixtures"
	"github.com/emberscope/emberscope/internal/pproforacle"
	"github.com/emberscope/emberscope/pkg/datasource/plugin/plugintest"
)

// The two recordings of one shop program (internal/fixtures/profiles/README.md).
const (
	routesOld = "profiles/routes-1.cpu.pb.gz"
	routesNew = "profiles/routes-2.cpu.pb.gz"
)

// pprofListing is what `go tool pprof -list` prints: its total, and per
// routine (function) the flat and cum of each line that has either, by
// "<file as recorded>:<line>".
type pprofListing struct {
	Total    int64
	Routines map[string]map[string]lineCost
}

// pprofListAll runs `go tool pprof -list regex -unit=ns` with extra
// arguments (-diff_base OLD, -source_path, -trim_path, more profiles to
// merge) on profilePath and reads every routine it prints.
func pprofListAll(t *testing.T, profilePath, regex string, extra ...string) pprofListing {
	t.Helper()
	args := append([]string{"-list", regex, "-sample_index=cpu", "-unit=ns"}, extra...)
	out := pproforacle.Output(t, profilePath, args...)
	total := regexp.MustCompile(`^Total: (-?\d+)ns$`)
	routine := regexp.MustCompile(`^ROUTINE =+ (.+) in (.+)$`)
	row := regexp.MustCompile(`^\s*(\S+)\s+(\S+)\s+(\d+):`)
	got := pprofListing{Routines: map[string]map[string]lineCost{}}
	var lines map[string]lineCost
	file := ""
	for _, l := range strings.Split(out, "\n") {
		if m := total.FindStringSubmatch(l); m != nil {
			got.Total = pprofValue(t, m[1])
			continue
		}
		if m := routine.FindStringSubmatch(l); m != nil {
			file = m[2]
			if lines = got.Routines[m[1]]; lines == nil {
				lines = map[string]lineCost{}
				got.Routines[m[1]] = lines
			}
			continue
		}
		m := row.FindStringSubmatch(l)
		if m == nil || lines == nil {
			continue
		}
		c := lineCost{Self: pprofValue(t, m[1]), Total: pprofValue(t, m[2])}
		if c.Self != 0 || c.Total != 0 {
			lines[file+":"+m[3]] = c
		}
	}
	require.NotEmpty(t, got.Routines, "pprof lists %s:\n%s", regex, out)
	return got
}

// listedLines is the answer's lines with a value (picked by side: nil for
// the difference), keyed as pprofListAll keys them.
func listedLines(v SourceView, side func(SourceLine) *SideCost) map[string]lineCost {
	got := map[string]lineCost{}
	for _, f := range v.Files {
		for _, l := range f.Lines {
			c := lineCost{Self: l.Self, Total: l.Total}
			if side != nil {
				s := side(l)
				if s == nil {
					continue
				}
				c = lineCost{Self: s.Self, Total: s.Total}
			}
			if c.Self != 0 || c.Total != 0 {
				got[f.Path+":"+strconv.FormatInt(l.Line, 10)] = c
			}
		}
	}
	return got
}

// TestSourceDiffMatchesPprofDiffBase shows a function of two recordings of
// one program as a diff: every line's difference is what
// `go tool pprof -list -diff_base OLD NEW` prints, and its baseline and
// comparison are what `-list` prints for OLD and for NEW. One function is
// the standard library's regexp backtracker, one has calls inlined into it
// (runtime.pcvalue), one is inlined into others (runtime.funcdata).
func TestSourceDiffMatchesPprofDiffBase(t *testing.T) {
	storeURL := plugintest.Store(t)
	plugintest.Ingest(t, storeURL, "routes{build=old}", plugintest.Now(t, fixtures.Read(t, routesOld)))
	plugintest.Ingest(t, storeURL, "routes{build=new}", plugintest.Now(t, fixtures.Read(t, routesNew)))
	d := newDSWith(t, storeURL, `{}`)
	oldPath, newPath := fixtures.Path(t, routesOld), fixtures.Path(t, routesNew)
	from := strconv.FormatInt(time.Now().Add(-time.Hour).UnixMilli(), 10)
	to := strconv.FormatInt(time.Now().Add(time.Minute).UnixMilli(), 10)

	for _, fn := range []string{"regexp.(*Regexp).tryBacktrack", "runtime.pcvalue", "runtime.funcdata"} {
		t.Run(fn, func(t *testing.T) {
			code, _, body := callResource(t, d, "GET", "source", url.Values{
				"profileTypeId": {cpuType}, "labelSelector": {`{build="old"}`}, "function": {fn}, "from": {from}, "to": {to},
				"comparison.labelSelector": {`{build="new"}`}, "comparison.from": {from}, "comparison.to": {to},
			})
			require.Equal(t, http.StatusOK, code, string(body))
			var v SourceView
			require.NoError(t, json.Unmarshal(body, &v))
			require.True(t, v.Diff)

			regex := "^" + regexp.QuoteMeta(fn) + "$"
			diff := pprofListAll(t, newPath, regex, "-diff_base", oldPath)
			require.Equal(t, diff.Routines[fn], listedLines(v, nil), "the difference is pprof -diff_base's")
			require.Equal(t, diff.Total, v.Total, "percentages are of pprof's -diff_base total")
			require.Equal(t, pprofListAll(t, oldPath, regex).Routines[fn], listedLines(v, func(l SourceLine) *SideCost { return l.Baseline }))
			require.Equal(t, pprofListAll(t, newPath, regex).Routines[fn], listedLines(v, func(l SourceLine) *SideCost { return l.Comparison }))
		})
	}

	// A baseline range with nothing in it leaves the comparison alone:
	// the difference is the comparison's lines.
	code, _, body := callResource(t, d, "GET", "source", url.Values{
		"profileTypeId": {cpuType}, "labelSelector": {`{build="old"}`}, "function": {"runtime.pcvalue"}, "from": {from}, "to": {to},
		"baseline.from": {"1000"}, "baseline.to": {"2000"},
		"comparison.labelSelector": {`{build="new"}`}, "comparison.from": {from}, "comparison.to": {to},
	})
	require.Equal(t, http.StatusOK, code, string(body))
	var v SourceView
	require.NoError(t, json.Unmarshal(body, &v))
	require.Equal(t, pprofListAll(t, newPath, `^runtime\.pcvalue$`).Routines["runtime.pcvalue"], listedLines(v, nil))
	require.Zero(t, v.BaselineTotal)
}

// TestSourceDiffRefusesHalfAComparison names what is missing.
func TestSourceDiffRefusesHalfAComparison(t *testing.T) {
	d := newDSWith(t, plugintest.Store(t), `{}`)
	for _, tc := range []struct {
		params url.Values
		want   string
	}{
		{url.Values{"comparison.labelSelector": {`{a="b"}`}}, "comparison.from and comparison.to"},
		{url.Values{"comparison.labelSelector": {`{a=`}, "comparison.from": {"1"}, "comparison.to": {"2"}}, "comparison.labelSelector"},
		{url.Values{"comparison.labelSelector": {`{}`}, "comparison.from": {"x"}, "comparison.to": {"2"}}, "comparison.from"},
		{url.Values{"baseline.from": {"1"}, "baseline.to": {"2"}}, "given without a comparison"},
		{url.Values{"comparison.labelSelector": {`{}`}, "comparison.from": {"1"}, "comparison.to": {"2"}, "baseline.from": {"3"}, "baseline.to": {"2"}}, "baseline"},
	} {
		tc.params.Set("profileTypeId", cpuType)
		tc.params.Set("function", "main.main")
		code, _, body := callResource(t, d, "GET", "source", tc.params)
		require.Equal(t, http.StatusBadRequest, code, string(body))
		require.Contains(t, string(body), tc.want)
	}
}

// TestSourceLinesEqualPprofListForEveryFunction counts every function of a
// real Go CPU profile with inlining (the runtime inlines much into much)
// and compares each with `go tool pprof -list`: a call inlined into a
// function counts at the caller's line of the call, and a function inlined
// into others shows its own lines with what ran in it everywhere.
func TestSourceLinesEqualPprofListForEveryFunction(t *testing.T) {
	p := plugintest.Parse(t, fixtures.Read(t, routesOld))
	idx := sampleIndexOf(p, "cpu", "nanoseconds")
	listing := pprofListAll(t, fixtures.Path(t, routesOld), ".")
	inlined := 0
	for fn, want := range listing.Routines {
		got := map[string]lineCost{}
		for _, f := range functionLines(p, fn, idx) {
			for l, c := range f.Lines {
				if c.Self != 0 || c.Total != 0 {
					got[f.Path+":"+strconv.FormatInt(l, 10)] = *c
				}
			}
		}
		if len(want) == 0 {
			continue // pprof could not read the file, so it printed no lines
		}
		require.Equal(t, want, got, fn)
		if strings.HasPrefix(fn, "runtime.") {
			inlined++
		}
	}
	require.Greater(t, inlined, 20, "the runtime's functions, with their inlined calls, were compared")
}

// TestSourceListsEachFileOfAFunction shows main.main of two programs
// selected together: pprof lists a routine per file, and so does the
// answer, each file's lines pprof's and its text from its own program.
func TestSourceListsEachFileOfAFunction(t *testing.T) {
	storeURL := plugintest.Store(t)
	plugintest.Ingest(t, storeURL, "pgoprog{env=both}", plugintest.Now(t, fixtures.Read(t, pgoProgProfile)))
	plugintest.Ingest(t, storeURL, "semverprog{env=both}", plugintest.Now(t, fixtures.Read(t, semverProfile)))
	cmdDir := fixtures.Path(t, "cmd")
	d := newDSWith(t, storeURL, fmt.Sprintf(`{"sourceRoots":[%q]}`, cmdDir))

	code, v, body := sourceOf(t, d, `{env="both"}`, "main.main")
	require.Equal(t, http.StatusOK, code, body)
	pgoFile := recordedFile(t, fixtures.Read(t, pgoProgProfile), "main.main")
	semverFile := recordedFile(t, fixtures.Read(t, semverProfile), "main.main")
	trims := []string{strings.TrimSuffix(pgoFile, "pgoprog/main.go"), strings.TrimSuffix(semverFile, "semverprog/main.go")}
	want := pprofListAll(t, fixtures.Path(t, pgoProgProfile), `^main\.main$`,
		"-source_path="+cmdDir, "-trim_path="+strings.Join(trims, ":"), fixtures.Path(t, semverProfile))
	// pprof names the files with the trimmed prefixes cut off
	got := map[string]lineCost{}
	for k, c := range listedLines(v, nil) {
		got[strings.TrimPrefix(strings.TrimPrefix(k, trims[0]), trims[1])] = c
	}
	require.Equal(t, want.Routines["main.main"], got)
	require.Len(t, v.Files, 2)
	for _, f := range v.Files {
		require.Equal(t, "local", f.Provider, f.Message)
		require.Empty(t, f.Warning, f.Path)
		require.Contains(t, sourceText(f, f.StartLine), "func main()", f.Path)
	}
}

// TestSourceStdlibOfTheProfilesPlatform reads the standard library from
// the toolchain module of the platform the profile's go_platform label
// names (a proxy holding only linux-arm64's): the lines are pprof's and the
// answer says which toolchain it showed.
func TestSourceStdlibOfTheProfilesPlatform(t *testing.T) {
	storeURL := plugintest.Store(t)
	plugintest.Ingest(t, storeURL, "semverprog{go_platform=linux-arm64,go_version="+semverGoVersion+"}", plugintest.Now(t, fixtures.Read(t, semverProfile)))
	zips := map[module.Version][]modzip.File{}
	for m, files := range semverZips(t) {
		m.Version = strings.Replace(m.Version, ".linux-amd64", ".linux-arm64", 1)
		zips[m] = files
	}
	proxy, calls := goProxy(t, zips)
	d := newDSWith(t, storeURL, fmt.Sprintf(`{"goProxyUrl":%q}`, proxy.URL))

	code, v, body := sourceOf(t, d, `{service_name="semverprog"}`, "sort.insertionSort_func")
	require.Equal(t, http.StatusOK, code, body)
	require.Equal(t, pprofList(t, fixtures.Path(t, semverProfile), "sort.insertionSort_func", "cpu"), viewLines(v))
	require.Equal(t, "goproxy", v.Files[0].Provider, v.Files[0].Message)
	require.Contains(t, v.Files[0].Origin, "golang.org/toolchain@v0.0.1-"+semverGoVersion+".linux-arm64")
	require.Equal(t, 1, *calls, "the label's platform was asked first, no other")
}
