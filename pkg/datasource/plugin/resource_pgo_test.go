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

	"github.com/emberscope/emberscope/internal/pproforacle"
	"github.com/emberscope/emberscope/pkg/datasource/plugin/plugintest"
)

// pgoProgProfile is the CPU profile testdata/pgoprog recorded of itself
// (-cpuprofile): main.checksum calling main.mix in a hot loop.
const pgoProgProfile = "testdata/pgoprog/pgoprog.cpu.pb.gz"

// TestPGOBuildsARealProgram pushes a real program's recorded CPU profile to
// the store, downloads it through the pgo resource and builds the program
// with it: the Go compiler reports the hot call edges of that profile, and
// google/pprof reads the file with every function's flat time unchanged.
func TestPGOBuildsARealProgram(t *testing.T) {
	recorded, err := os.ReadFile(pgoProgProfile)
	require.NoError(t, err)
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
	want := pproforacle.Top(t, pgoProgProfile, pproforacle.Options{SampleType: "cpu"})
	require.Equal(t, want.Total, got.Total)
	require.Equal(t, want.Flat(), got.Flat())

	build := exec.Command("go", "build", "-pgo="+pgoFile, "-gcflags=-d=pgodebug=1",
		"-o", filepath.Join(dir, "pgoprog"), "./testdata/pgoprog")
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
