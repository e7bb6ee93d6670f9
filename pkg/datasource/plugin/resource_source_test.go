// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/pprof/profile"
	"github.com/grafana/grafana-plugin-sdk-go/backend"
	"github.com/stretchr/testify/require"
	"golang.org/x/mod/module"
	modzip "golang.org/x/mod/zip"
	"google.golang.org/protobuf/proto"

	"github.com/emberscope/emberscope/internal/fixtures"
	"github.com/emberscope/emberscope/internal/pproforacle"
	"github.com/emberscope/emberscope/internal/pyroscopereplay"
	"github.com/emberscope/emberscope/pkg/datasource/plugin/plugintest"
	"github.com/emberscope/emberscope/pkg/datasource/source/parca/parcatest"
)

// semverProfile is the CPU profile internal/fixtures/cmd/semverprog recorded
// of itself with go1.26.8: its own code, golang.org/x/mod/semver (a module
// dependency) and the standard library's sort and fmt.
const (
	semverProfile   = "profiles/semverprog.cpu.pb.gz"
	semverGoVersion = "go1.26.8"
	semverModule    = "golang.org/x/mod"
	semverModuleVer = "v0.42.0"
)

// pprofList runs `go tool pprof -list` for fn (through regexp.QuoteMeta)
// and returns the flat and cum of every line of fn's routines that has
// either, by "<file base>:<line>".
// Extra arguments (-source_path, -trim_path) point pprof at the files.
func pprofList(t *testing.T, profilePath, fn, sampleType string, extra ...string) map[string]lineCost {
	t.Helper()
	args := append([]string{"-list", "^" + regexp.QuoteMeta(fn) + "$", "-sample_index=" + sampleType, "-unit=ns"}, extra...)
	out := pproforacle.Output(t, profilePath, args...)
	routine := regexp.MustCompile(`^ROUTINE =+ (.+) in (.+)$`)
	row := regexp.MustCompile(`^\s*(\S+)\s+(\S+)\s+(\d+):`)
	got := map[string]lineCost{}
	file := ""
	for _, l := range strings.Split(out, "\n") {
		if m := routine.FindStringSubmatch(l); m != nil {
			require.Equal(t, fn, m[1], "pprof lists only the function asked for")
			file = path.Base(m[2])
			continue
		}
		m := row.FindStringSubmatch(l)
		if m == nil || file == "" {
			continue
		}
		c := lineCost{Self: pprofValue(t, m[1]), Total: pprofValue(t, m[2])}
		if c.Self != 0 || c.Total != 0 {
			got[file+":"+m[3]] = c
		}
	}
	require.NotEmpty(t, got, "pprof lists %s:\n%s", fn, out)
	return got
}

func pprofValue(t *testing.T, s string) int64 {
	if s == "." {
		return 0
	}
	n, err := strconv.ParseInt(strings.TrimSuffix(s, "ns"), 10, 64)
	require.NoError(t, err, s)
	return n
}

// viewLines is the answer's lines with a value, keyed as pprofList keys them.
func viewLines(v SourceView) map[string]lineCost {
	got := map[string]lineCost{}
	for _, f := range v.Files {
		for _, l := range f.Lines {
			if l.Self != 0 || l.Total != 0 {
				got[path.Base(f.Path)+":"+strconv.FormatInt(l.Line, 10)] = lineCost{Self: l.Self, Total: l.Total}
			}
		}
	}
	return got
}

// sourceOf calls the source resource for fn over the last hour.
func sourceOf(t *testing.T, d *Datasource, selector, fn string) (int, SourceView, string) {
	t.Helper()
	code, _, body := callResource(t, d, "GET", "source", url.Values{
		"profileTypeId": {cpuType}, "labelSelector": {selector}, "function": {fn},
		"from": {strconv.FormatInt(time.Now().Add(-time.Hour).UnixMilli(), 10)}, "to": {"now"},
	})
	var v SourceView
	if code == http.StatusOK {
		require.NoError(t, json.Unmarshal(body, &v), string(body))
	}
	return code, v, string(body)
}

// sourceText is the text the answer shows for a line.
func sourceText(f SourceFile, line int64) string {
	for _, l := range f.Lines {
		if l.Line == line {
			return l.Text
		}
	}
	return ""
}

// fileLine reads one line of a file on disk, the oracle of a line's text.
func fileLine(t *testing.T, file string, line int64) string {
	t.Helper()
	b, err := os.ReadFile(file)
	require.NoError(t, err)
	return strings.Split(string(b), "\n")[line-1]
}

// recordedFile is the file a profile names for fn.
func recordedFile(t *testing.T, b []byte, fn string) string {
	t.Helper()
	for _, f := range plugintest.Parse(t, b).Function {
		if f.Name == fn {
			return f.Filename
		}
	}
	t.Fatalf("the profile has no function %s", fn)
	return ""
}

// hottest is the answer's line with the largest total.
func hottest(f SourceFile) SourceLine {
	var h SourceLine
	for _, l := range f.Lines {
		if l.Total > h.Total {
			h = l
		}
	}
	return h
}

// TestSourceLocalRootMatchesPprofList shows a function of the program's own
// code from a local source root: every line's self and total are the ones
// `go tool pprof -list` prints for the recorded profile, and the text is
// the file's.
func TestSourceLocalRootMatchesPprofList(t *testing.T) {
	const commit = "9245b2a0c1d2e3f405162738495a6b7c8d9e0f1a"
	recordedDir := filepath.Dir(recordedFile(t, fixtures.Read(t, pgoProgProfile), "main.checksum"))
	storeURL := plugintest.Store(t)
	plugintest.Ingest(t, storeURL, "pgoprog{service_repository=https://github.com/acme/pgoprog,service_git_ref="+commit+",service_root_path="+recordedDir+"}",
		plugintest.Now(t, fixtures.Read(t, pgoProgProfile)))
	root := fixtures.Path(t, "cmd/pgoprog")
	d := newDSWith(t, storeURL, fmt.Sprintf(`{"sourceRoots":[%q]}`, root))

	code, v, body := sourceOf(t, d, `{service_name="pgoprog"}`, "main.checksum")
	require.Equal(t, 200, code, body)
	require.Equal(t, pprofList(t, fixtures.Path(t, pgoProgProfile), "main.checksum", "cpu",
		"-source_path="+root, "-trim_path="+recordedDir), viewLines(v))
	require.Len(t, v.Files, 1)
	f := v.Files[0]
	require.Equal(t, "local", f.Provider, f.Message)
	require.Contains(t, f.Origin, root)
	require.Equal(t, "https://github.com/acme/pgoprog/blob/"+commit+"/main.go", f.Link, "the file is linked at the profiled commit")
	require.Empty(t, f.Warning)
	h := hottest(f)
	require.Equal(t, fileLine(t, filepath.Join(root, "main.go"), h.Line), h.Text)
	require.Contains(t, h.Text, "mix(", "the hot line is the call of mix")
	require.Contains(t, sourceText(f, f.StartLine), "func checksum(", "the answer starts at the declaration")
}

// goProxy serves module zips made with golang.org/x/mod/zip as a Go
// module proxy does (<module>/@v/<version>.zip), and counts the calls.
func goProxy(t *testing.T, zips map[module.Version][]modzip.File) (*httptest.Server, *int) {
	t.Helper()
	bodies := map[string][]byte{}
	for m, files := range zips {
		var buf bytes.Buffer
		require.NoError(t, modzip.Create(&buf, m, files))
		escMod, err := module.EscapePath(m.Path)
		require.NoError(t, err)
		bodies["/"+escMod+"/@v/"+m.Version+".zip"] = buf.Bytes()
	}
	calls := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls++
		b, ok := bodies[r.URL.Path]
		if !ok {
			http.Error(w, "not found: "+r.URL.Path, http.StatusNotFound)
			return
		}
		_, _ = w.Write(b)
	}))
	t.Cleanup(srv.Close)
	return srv, &calls
}

// zipFile is a file for modzip.Create read from disk.
type zipFile struct{ name, disk string }

func (f zipFile) Path() string                 { return f.name }
func (f zipFile) Lstat() (os.FileInfo, error)  { return os.Stat(f.disk) }
func (f zipFile) Open() (io.ReadCloser, error) { return os.Open(f.disk) }

// semverZips are the zips the semverprog profile's files come from: the
// module golang.org/x/mod from the module cache, and the toolchain module
// holding the standard library's sort and fmt.
func semverZips(t *testing.T) map[module.Version][]modzip.File {
	t.Helper()
	modDir := filepath.Join(goEnv(t, "GOMODCACHE"), semverModule+"@"+semverModuleVer)
	goroot := goEnv(t, "GOROOT")
	return map[module.Version][]modzip.File{
		{Path: semverModule, Version: semverModuleVer}: {
			zipFile{"semver/semver.go", filepath.Join(modDir, "semver", "semver.go")},
			zipFile{"go.mod", filepath.Join(modDir, "go.mod")},
		},
		{Path: "golang.org/toolchain", Version: "v0.0.1-" + semverGoVersion + ".linux-amd64"}: {
			zipFile{"src/sort/zsortfunc.go", filepath.Join(goroot, "src", "sort", "zsortfunc.go")},
			zipFile{"src/fmt/print.go", filepath.Join(goroot, "src", "fmt", "print.go")},
		},
	}
}

func goEnv(t *testing.T, name string) string {
	t.Helper()
	out, err := exec.Command("go", "env", name).Output()
	require.NoError(t, err)
	return strings.TrimSpace(string(out))
}

// TestSourceGoProxyMatchesPprofList shows a module dependency's function
// and two standard library functions from a Go module proxy: each line's
// self and total are pprof's, the text is the module's, and the answer
// says which Go version's standard library it shows.
func TestSourceGoProxyMatchesPprofList(t *testing.T) {
	storeURL := plugintest.Store(t)
	plugintest.Ingest(t, storeURL, "semverprog{env=test}", plugintest.Now(t, fixtures.Read(t, semverProfile)))
	proxy, calls := goProxy(t, semverZips(t))
	d := newDSWith(t, storeURL, fmt.Sprintf(`{"goProxyUrl":%q,"goVersion":%q}`, proxy.URL, semverGoVersion))
	recorded := fixtures.Path(t, semverProfile)

	for _, tc := range []struct {
		fn, file, goVersion string
	}{
		{"golang.org/x/mod/semver.Compare", filepath.Join(goEnv(t, "GOMODCACHE"), semverModule+"@"+semverModuleVer, "semver", "semver.go"), ""},
		{"sort.insertionSort_func", filepath.Join(goEnv(t, "GOROOT"), "src", "sort", "zsortfunc.go"), semverGoVersion},
		{"fmt.(*pp).doPrintf", filepath.Join(goEnv(t, "GOROOT"), "src", "fmt", "print.go"), semverGoVersion},
	} {
		t.Run(tc.fn, func(t *testing.T) {
			code, v, body := sourceOf(t, d, `{service_name="semverprog"}`, tc.fn)
			require.Equal(t, 200, code, body)
			require.Equal(t, pprofList(t, recorded, tc.fn, "cpu"), viewLines(v))
			f := v.Files[0]
			require.Equal(t, "goproxy", f.Provider, f.Message)
			require.Equal(t, tc.goVersion, f.GoVersion)
			h := hottest(f)
			require.Equal(t, fileLine(t, tc.file, h.Line), h.Text)
			require.Empty(t, f.Warning)
		})
	}
	before := *calls
	code, _, body := sourceOf(t, d, `{service_name="semverprog"}`, "golang.org/x/mod/semver.Compare")
	require.Equal(t, 200, code, body)
	require.Equal(t, before, *calls, "a file shown once is cached")
}

// TestSourceFromParcaMatchesPprofList reads the per-line values from a real
// Parca server's merged pprof (recording 21, REPORT_TYPE_PPROF): they are
// the ones `go tool pprof -list` prints for that recorded answer. The
// recording's machine is gone, so no source is found, and the answer names
// each place it looked.
func TestSourceFromParcaMatchesPprofList(t *testing.T) {
	srv := parcatest.NewServer(t, parcatest.DefaultDir)
	root := t.TempDir()
	d := newDSWith(t, srv.URL, fmt.Sprintf(`{"serverKind":"parca","sourceRoots":[%q]}`, root))
	t.Cleanup(func() {
		for _, u := range srv.Unmatched() {
			require.Contains(t, u, "/api/profiles/labels", "only the label lookup (no recording) may miss: %s", u)
		}
	})
	recorded := filepath.Join(fixtures.Parca(), "21-query-merge-pprof.pb.gz")
	for _, fn := range []string{"regexp.(*Regexp).tryBacktrack", "slices.partitionOrdered[go.shape.int]"} {
		t.Run(fn, func(t *testing.T) {
			code, _, body := callResource(t, d, "GET", "source", url.Values{
				"profileTypeId": {cpuType}, "labelSelector": {`{job="demo-labeled"}`}, "function": {fn},
				"from": {strconv.FormatInt(parcaRecorded.From.UnixMilli(), 10)},
				"to":   {strconv.FormatInt(parcaRecorded.To.UnixMilli(), 10)},
			})
			require.Equal(t, 200, code, string(body))
			var v SourceView
			require.NoError(t, json.Unmarshal(body, &v))
			require.Equal(t, pprofList(t, recorded, fn, "cpu", "-source_path="+root), viewLines(v))
			require.Contains(t, v.Files[0].Message, "no source found for "+v.Files[0].Path)
			require.Contains(t, v.Files[0].Message, "local source roots "+root)
		})
	}
}

// gitHubAPI answers the contents API as GitHub documents it
// (GET /repos/{owner}/{repo}/contents/{path}?ref=, the file base64-encoded
// in JSON), serving files only to a request carrying token.
func gitHubAPI(t *testing.T, owner, repo, ref, token string, files map[string][]byte) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+token {
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = w.Write([]byte(`{"message":"Bad credentials"}`))
			return
		}
		prefix := "/repos/" + owner + "/" + repo + "/contents/"
		content, ok := files[strings.TrimPrefix(r.URL.Path, prefix)]
		if !strings.HasPrefix(r.URL.Path, prefix) || r.URL.Query().Get("ref") != ref || !ok {
			w.WriteHeader(http.StatusNotFound)
			_, _ = w.Write([]byte(`{"message":"Not Found"}`))
			return
		}
		writeJSONBody(t, w, map[string]any{
			"type": "file", "encoding": "base64", "size": len(content),
			"name": path.Base(r.URL.Path), "path": strings.TrimPrefix(r.URL.Path, prefix),
			"content": base64.StdEncoding.EncodeToString(content),
		})
	}))
	t.Cleanup(srv.Close)
	return srv
}

func writeJSONBody(t *testing.T, w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	require.NoError(t, json.NewEncoder(w).Encode(v))
}

// TestSourceFromGitHub reads the program's own file from GitHub at the
// commit of the profile's labels, with the token kept in secureJsonData:
// the answer links the line at that commit and never holds the token.
func TestSourceFromGitHub(t *testing.T) {
	const (
		token  = "ghp_sourceViewTestToken"
		commit = "4bf881d7fb0b2c3d4e5f60718293a4b5c6d7e8f9"
	)
	recordedMain := recordedFile(t, fixtures.Read(t, semverProfile), "main.newest.func1")
	rootPath := filepath.Dir(recordedMain)
	mainGo := fixtures.Read(t, "cmd/semverprog/main.go")
	gh := gitHubAPI(t, "acme", "semverprog", commit, token, map[string][]byte{"main.go": mainGo})

	storeURL := plugintest.Store(t)
	plugintest.Ingest(t, storeURL, fmt.Sprintf("semverprog{service_repository=https://github.com/acme/semverprog,service_git_ref=%s,service_root_path=%s}", commit, rootPath),
		plugintest.Now(t, fixtures.Read(t, semverProfile)))
	inst, err := NewDatasource(context.Background(), backend.DataSourceInstanceSettings{
		UID: "emberscope", Type: PluginID, URL: storeURL,
		JSONData:                json.RawMessage(fmt.Sprintf(`{"githubApiUrl":%q,"sourceServerVcs":false}`, gh.URL)),
		DecryptedSecureJSONData: map[string]string{"githubToken": token},
	})
	require.NoError(t, err)
	d := inst.(*Datasource)
	t.Cleanup(d.Dispose)

	code, v, body := sourceOf(t, d, `{service_name="semverprog"}`, "main.newest.func1")
	require.Equal(t, 200, code, body)
	require.NotContains(t, body, token, "the token never reaches the browser")
	require.Equal(t, pprofList(t, fixtures.Path(t, semverProfile), "main.newest.func1", "cpu",
		"-source_path="+fixtures.Path(t, "cmd/semverprog"), "-trim_path="+rootPath), viewLines(v))
	f := v.Files[0]
	require.Equal(t, "github", f.Provider, f.Message)
	require.Equal(t, "https://github.com/acme/semverprog/blob/"+commit+"/main.go", f.Link)
	require.Contains(t, f.Origin, commit)
	h := hottest(f)
	require.Contains(t, h.Text, "semver.Compare(", "the hot line is the call into the module")

	// Without the token GitHub refuses, and the answer says to check it.
	noToken := newDSWith(t, storeURL, fmt.Sprintf(`{"githubApiUrl":%q,"sourceServerVcs":false}`, gh.URL))
	code, v, body = sourceOf(t, noToken, `{service_name="semverprog"}`, "main.newest.func1")
	require.Equal(t, 200, code, body)
	require.Contains(t, v.Files[0].Message, "check the GitHub token")
	require.NotEmpty(t, viewLines(v), "the numbers are shown without the text")
}

// TestSourceLinesOfPyroscopesAnswer counts per line from what a real
// Pyroscope v2.2.1 answered to SelectMergeProfile (recording 27, a pprof
// with lines): self and total equal `go tool pprof -list` on that answer.
// The replay cannot serve the resource itself (it asks a larger node
// budget and the series' labels, which were not recorded).
func TestSourceLinesOfPyroscopesAnswer(t *testing.T) {
	exs, err := pyroscopereplay.Load(fixtures.Pyroscope())
	require.NoError(t, err)
	var answer []byte
	for _, ex := range exs {
		if ex.Number == 27 {
			m, err := pyroscopereplay.Decode(ex.RPC(), ex.Response)
			require.NoError(t, err)
			answer, err = proto.Marshal(m)
			require.NoError(t, err)
		}
	}
	require.NotEmpty(t, answer, "recording 27 is SelectMergeProfile")
	p, err := profile.ParseData(answer)
	require.NoError(t, err)
	file := filepath.Join(t.TempDir(), "27.pb.gz")
	out, err := os.Create(file)
	require.NoError(t, err)
	require.NoError(t, p.Write(out))
	require.NoError(t, out.Close())

	idx := sampleIndexOf(p, "cpu", "nanoseconds")
	// pprof prints a line's numbers only beside its text: the standard
	// library's files are on this machine, the recorded program's are not.
	for _, fn := range []string{"regexp.(*Regexp).backtrack", "regexp.(*Regexp).tryBacktrack"} {
		got := map[string]lineCost{}
		for _, f := range functionLines(p, fn, idx) {
			for l, c := range f.Lines {
				if c.Self != 0 || c.Total != 0 {
					got[path.Base(f.Path)+":"+strconv.FormatInt(l, 10)] = *c
				}
			}
		}
		require.Equal(t, pprofList(t, file, fn, "cpu", "-source_path="+t.TempDir()), got, fn)
	}
}

// TestSourceWarnsWhenTheFileChanged finds a file whose function no longer
// starts at the profile's start line (two lines were added above it): the
// numbers stay, and the answer warns that the file is not the one profiled.
func TestSourceWarnsWhenTheFileChanged(t *testing.T) {
	storeURL := plugintest.Store(t)
	plugintest.Ingest(t, storeURL, "pgoprog{env=changed}", plugintest.Now(t, fixtures.Read(t, pgoProgProfile)))
	root := t.TempDir()
	changed := append([]byte("// a comment added\n// after the profile\n"), fixtures.Read(t, "cmd/pgoprog/main.go")...)
	require.NoError(t, os.WriteFile(filepath.Join(root, "main.go"), changed, 0o644))
	d := newDSWith(t, storeURL, fmt.Sprintf(`{"sourceRoots":[%q]}`, root))

	code, v, body := sourceOf(t, d, `{service_name="pgoprog"}`, "main.checksum")
	require.Equal(t, 200, code, body)
	f := v.Files[0]
	require.Equal(t, "local", f.Provider)
	require.Contains(t, f.Warning, fmt.Sprintf("the profile says main.checksum starts at line %d", f.StartLine))
	require.Contains(t, f.Warning, "the file has changed since it was profiled")
}
