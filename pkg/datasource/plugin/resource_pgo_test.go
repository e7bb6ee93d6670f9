// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/google/pprof/profile"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/internal/fixtures"
	"github.com/emberscope/emberscope/internal/pproforacle"
	"github.com/emberscope/emberscope/pkg/datasource/plugin/plugintest"
)

// pgoProgProfile is the CPU profile internal/fixtures/cmd/pgoprog recorded of
// itself (-cpuprofile): main.checksum calling main.mix in a hot loop.
const pgoProgProfile = "profiles/pgoprog.cpu.pb.gz"

// TestPGOBuildsARealProgram pushes a real program's recorded CPU profile to
// the store, downloads it through the pgo resource and builds the program
// with it: the Go compiler reports the hot call edges of that profile, and
// google/pprof reads the file with every function's flat time unchanged.
func TestPGOBuildsARealProgram(t *testing.T) {
	recorded := fixtures.Read(t, pgoProgProfile)
	storeURL := plugintest.Store(t)
	plugintest.Ingest(t, storeURL, "pgoprog{env=test}", plugintest.Now(t, recorded))
	d := newDS(t, storeURL)

	now := time.Now()
	code, h, body := callResource(t, d, "GET", "pgo", url.Values{
		"profileTypeId": {cpuType}, "labelSelector": {`{service_name="pgoprog"}`},
		"from": {strconv.FormatInt(now.Add(-time.Hour).UnixMilli(), 10)}, "to": {"now"},
	})
	require.Equal(t, 200, code, string(body))
	require.Equal(t, `attachment; filename="default.pgo"`, h.Get("Content-Disposition"))

	p, err := profile.ParseData(body)
	require.NoError(t, err)
	require.NotEmpty(t, p.Sample)
	for _, s := range p.Sample {
		require.LessOrEqual(t, len(s.Location), 5, "the default keeps the 5 leaf-most locations")
	}

	dir := t.TempDir()
	pgoFile := filepath.Join(dir, "default.pgo")
	require.NoError(t, os.WriteFile(pgoFile, body, 0o600))

	// The oracle is google/pprof: it reads the download, and a cut that
	// keeps every stack's leaf keeps every function's flat time.
	got := pproforacle.Top(t, pgoFile, pproforacle.Options{SampleType: "cpu"})
	want := pproforacle.Top(t, fixtures.Path(t, pgoProgProfile), pproforacle.Options{SampleType: "cpu"})
	require.Equal(t, want.Total, got.Total)
	require.Equal(t, want.Flat(), got.Flat())

	build := exec.Command("go", "build", "-pgo="+pgoFile, "-gcflags=-d=pgodebug=1",
		"-o", filepath.Join(dir, "pgoprog"), "github.com/emberscope/emberscope/internal/fixtures/cmd/pgoprog")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "go build -pgo: %s", out)
	for _, fn := range []string{"main.mix", "main.checksum"} {
		require.Contains(t, string(out), "hot-node enabled increased budget=2000 for func="+fn,
			"the compiler found %s hot in the downloaded profile:\n%s", fn, out)
	}
	// The call edge main.main -> main.checksum (main.go line 66) is hot.
	// The edge main.checksum -> main.mix is not among them with the default
	// aggregateCallees: main.checksum's location at line 45 is also a leaf
	// (its own loop), so its line is forgotten wherever it appears, as
	// Pyroscope forgets it (recording 85), and the compiler no longer finds
	// that call site.
	require.Regexp(t, `hot-budget check allows inlining for call main\.checksum \(cost \d+\) at \S+main\.go:66:\d+ in function main\.main`, string(out),
		"the compiler inlines the profile's hot call edge main.main -> main.checksum:\n%s", out)
}

// TestPGORefusesBadParameters answers 400 with a message naming the
// parameter, before asking the server anything.
func TestPGORefusesBadParameters(t *testing.T) {
	d := newDS(t, "http://127.0.0.1:1")
	base := url.Values{"profileTypeId": {cpuType}, "labelSelector": {`{service_name="shop"}`}}
	for _, tc := range []struct {
		name, param, value, message string
	}{
		{"no profile type", "profileTypeId", "", `profileTypeId: missing`},
		{"heap profile type", "profileTypeId", heapType, `profileTypeId: \"memory:inuse_space:bytes:space:bytes\" is not a CPU profile type`},
		{"malformed profile type", "profileTypeId", "process_cpu:cpu", `profileTypeId: profile type \"process_cpu:cpu\" has 2 parts`},
		{"negative keepLocations", "keepLocations", "-1", `keepLocations: \"-1\" is not a whole number`},
		{"word keepLocations", "keepLocations", "five", `keepLocations: \"five\" is not a whole number`},
		{"bad aggregateCallees", "aggregateCallees", "maybe", `aggregateCallees: \"maybe\" is not true or false`},
		{"bad from", "from", "yesterday", `from: \"yesterday\" is not a time`},
		{"bad to", "to", "now-soon", `to: \"now-soon\" is not a time`},
		{"from after to", "from", "now", `is not before to`},
		{"bad selector", "labelSelector", `{service_name=`, `labelSelector:`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := url.Values{}
			for k, xs := range base {
				v[k] = xs
			}
			v.Set(tc.param, tc.value)
			if tc.name == "from after to" {
				v.Set("to", "now-1h")
			}
			code, _, body := callResource(t, d, "GET", "pgo", v)
			require.Equal(t, 400, code, string(body))
			require.Contains(t, string(body), tc.message)
		})
	}
}

// TestPGOFromParca cuts the merged pprof of a real Parca server (recording
// 21, which Parca cannot cut itself) as Pyroscope's go_pgo does: google/pprof
// reads the download, every stack keeps its 5 leaf-most locations, leaves
// have no line, and every function's flat time is the recorded profile's.
func TestPGOFromParca(t *testing.T) {
	d := parcaDS(t)
	code, h, body := callResource(t, d, "GET", "pgo", url.Values{
		"profileTypeId": {cpuType}, "labelSelector": {`{job="demo-labeled"}`},
		"from": {strconv.FormatInt(parcaRecorded.From.UnixMilli(), 10)},
		"to":   {strconv.FormatInt(parcaRecorded.To.UnixMilli(), 10)},
	})
	require.Equal(t, 200, code, string(body))
	require.Equal(t, `attachment; filename="default.pgo"`, h.Get("Content-Disposition"))

	recordedFile := filepath.Join(fixtures.Parca(), "21-query-merge-pprof.pb.gz")
	recorded, err := profile.Parse(mustOpen(t, recordedFile))
	require.NoError(t, err)
	deepest := 0
	for _, s := range recorded.Sample {
		deepest = max(deepest, len(s.Location))
	}
	require.Greater(t, deepest, 5, "the recorded profile has stacks to cut")

	p, err := profile.ParseData(body)
	require.NoError(t, err)
	require.NotEmpty(t, p.Sample)
	for _, s := range p.Sample {
		require.LessOrEqual(t, len(s.Location), 5)
		require.Zero(t, s.Location[0].Line[0].Line, "the callee's line is forgotten")
		require.Empty(t, s.Label, "labels are summed away")
	}
	got := pproforacle.TopOfBytes(t, body, pproforacle.Options{SampleType: "cpu"})
	want := pproforacle.Top(t, recordedFile, pproforacle.Options{SampleType: "cpu"})
	require.Equal(t, want.Total, got.Total)
	require.Equal(t, want.Flat(), got.Flat())
}

func mustOpen(t *testing.T, path string) *os.File {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	t.Cleanup(func() { _ = f.Close() })
	return f
}
