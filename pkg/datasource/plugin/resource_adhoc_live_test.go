// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"connectrpc.com/connect"
	"github.com/google/pprof/profile"
	querierv1 "github.com/grafana/pyroscope/api/gen/proto/go/querier/v1"
	"github.com/grafana/pyroscope/api/gen/proto/go/querier/v1/querierv1connect"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/internal/fixtures"
	"github.com/emberscope/emberscope/pkg/datasource/plugin/plugintest"
)

// liveFixture is a store holding plugintest.CPUFile as service "prod", the
// datasource over it, and the store's own answer for that service (its
// SelectMergeProfile, a pprof) written to a file: the oracle's base.
type liveFixture struct {
	d        *Datasource
	live     map[string]any
	livePath string
	dir      string
}

func newLiveFixture(t *testing.T) liveFixture {
	t.Helper()
	url := plugintest.Store(t)
	plugintest.Ingest(t, url, `prod{env="prod"}`, plugintest.CPUProfile(t))
	plugintest.Ingest(t, url, `other{env="prod"}`, plugintest.SecondCPUProfile(t))
	from, to := time.Now().Add(-time.Hour), time.Now().Add(time.Minute)
	sel := `{service_name="prod"}`
	client := querierv1connect.NewQuerierServiceClient(http.DefaultClient, url)
	//lint:ignore SA1019 the store serves querier.v1 SelectMergeProfile as Pyroscope v2.2.1 does; its answer is a pprof
	ans, err := client.SelectMergeProfile(context.Background(),
		connect.NewRequest(&querierv1.SelectMergeProfileRequest{ProfileTypeID: cpuType, LabelSelector: sel, Start: from.UnixMilli(), End: to.UnixMilli()}))
	require.NoError(t, err)
	b, err := ans.Msg.MarshalVT()
	require.NoError(t, err)
	dir := t.TempDir()
	livePath := filepath.Join(dir, "live.pb")
	require.NoError(t, os.WriteFile(livePath, b, 0o600))
	return liveFixture{
		d:        newDS(t, url),
		live:     map[string]any{"profileTypeId": cpuType, "labelSelector": sel, "from": from.UnixMilli(), "to": to.UnixMilli()},
		livePath: livePath,
		dir:      dir,
	}
}

// cpuOnly writes a fixture profile reduced to its cpu sample type (google/
// pprof's data, one value per sample dropped), so that pprof takes it and
// the store's single-type answer together.
func cpuOnly(t *testing.T, dir, name string) string {
	t.Helper()
	p, err := profile.ParseData(fixtures.Profile(t, name))
	require.NoError(t, err)
	i := plugintest.SampleIndex(t, p, "cpu")
	p.SampleType = p.SampleType[i : i+1]
	for _, s := range p.Sample {
		s.Value = s.Value[i : i+1]
	}
	path := filepath.Join(dir, "cpu-"+name)
	f, err := os.Create(path)
	require.NoError(t, err)
	require.NoError(t, p.Write(f))
	require.NoError(t, f.Close())
	return path
}

// diffByFunction is the per-function self difference of a diff frame.
func diffByFunction(t *testing.T, d *Datasource, req map[string]any) map[string]int64 {
	t.Helper()
	fs := adhocFrames(t, d, "alice", "adhoc/diff", req)
	require.Len(t, fs, 1)
	rows := flameRows(t, fs[0])
	selfRight := int64Field(t, fs[0], "selfRight")
	got := map[string]int64{}
	for i, r := range rows[1:] {
		got[r.Label] += selfRight[i+1] - r.Self
	}
	return nonZero(got)
}

// A file against a live query: the live side merged through the store is
// the base; per-function differences equal `go tool pprof -top -diff_base`
// (and with -normalize) where the base is the store's own pprof answer,
// whichever side the file is.
func TestAdhocFileAgainstLiveQueryIsPprofDiffBase(t *testing.T) {
	fx := newLiveFixture(t)
	fileName := plugintest.SecondCPUFile
	id, _ := upload(t, fx.d, "alice", "bench.cpu.pb.gz", fixtures.Profile(t, fileName), 1<<20)
	filePath := cpuOnly(t, fx.dir, fileName)
	query := map[string]any{"profileTypeId": cpuType, "maxNodes": 100000}

	for _, normalize := range []bool{false, true} {
		args := []string{"-diff_base=" + fx.livePath}
		if normalize {
			args = append(args, "-normalize")
		}
		want, _ := pprofFlat(t, filePath, args...)
		got := diffByFunction(t, fx.d, map[string]any{"leftLive": fx.live, "rightIds": []string{id}, "query": query, "normalize": normalize})
		require.NotEmpty(t, got)
		require.Equal(t, nonZero(want), got, "normalize=%v: live baseline, file comparison vs go tool pprof -top -diff_base", normalize)
	}
	// the file as the baseline, the live query as the comparison
	want, _ := pprofFlat(t, fx.livePath, "-diff_base="+filePath)
	got := diffByFunction(t, fx.d, map[string]any{"leftIds": []string{id}, "rightLive": fx.live, "query": query})
	require.Equal(t, nonZero(want), got, "file baseline, live comparison vs go tool pprof -top -diff_base")

	// -base: the file minus the live side, one flamegraph of pprof's flats
	wantBase, _ := pprofFlat(t, filePath, "-base="+fx.livePath)
	fs := adhocFrames(t, fx.d, "alice", "adhoc/diff", map[string]any{"leftLive": fx.live, "rightIds": []string{id}, "query": query, "mode": "base"})
	require.Len(t, fs, 1)
	require.Equal(t, nonZero(wantBase), nonZero(selfByName(flameRows(t, fs[0])[1:])), "-base: live baseline vs go tool pprof -top -base")
}

// A live side that finds nothing, or a side given twice, is the user's
// error, named.
func TestAdhocLiveSideRefusals(t *testing.T) {
	fx := newLiveFixture(t)
	id, _ := upload(t, fx.d, "alice", "bench.cpu.pb.gz", fixtures.Profile(t, plugintest.SecondCPUFile), 1<<20)
	query := map[string]any{"profileTypeId": cpuType}
	for _, c := range []struct {
		req  map[string]any
		want string
	}{
		{map[string]any{"leftLive": map[string]any{"profileTypeId": cpuType, "labelSelector": `{service_name="nobody"}`, "from": fx.live["from"], "to": fx.live["to"]}, "rightIds": []string{id}, "query": query},
			`baseline: the live query {service_name="nobody"} of ` + cpuType + ` found no profiles`},
		{map[string]any{"leftLive": fx.live, "leftIds": []string{id}, "rightIds": []string{id}, "query": query},
			"baseline: give open files or a live query, not both"},
		{map[string]any{"leftIds": []string{id}, "rightLive": map[string]any{"profileTypeId": cpuType, "from": 5, "to": 5}, "query": query},
			"comparison: the live query's range from 5 to 5 (epoch ms) is empty"},
		{map[string]any{"leftIds": []string{id}, "rightLive": map[string]any{"profileTypeId": cpuType, "labelSelector": "{oops", "from": fx.live["from"], "to": fx.live["to"]}, "query": query},
			"comparison: the live query:"},
	} {
		js, err := json.Marshal(c.req)
		require.NoError(t, err)
		status, body := adhocCall(t, fx.d, "alice", http.MethodPost, "adhoc/diff", "", js)
		require.Equal(t, http.StatusBadRequest, status, "%s", body)
		var ans struct{ Error string }
		require.NoError(t, json.Unmarshal(body, &ans))
		require.Contains(t, ans.Error, c.want)
	}
}

// exported calls adhoc/export and writes the pprof it answers to a file.
func exported(t *testing.T, d *Datasource, dir, name string, req map[string]any) string {
	t.Helper()
	js, err := json.Marshal(req)
	require.NoError(t, err)
	status, body := adhocCall(t, d, "alice", http.MethodPost, "adhoc/export", "", js)
	require.Equal(t, http.StatusOK, status, "%s", body)
	path := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(path, body, 0o600))
	return path
}

// What the page shows exports as pprof that `go tool pprof -top` reads as
// shown: a file's total and flat values; a comparison's per-function
// differences with the baseline's total as pprof's total (as -diff_base
// prints it), for two files and for a file against a live query.
func TestAdhocExportIsWhatIsShown(t *testing.T) {
	fx := newLiveFixture(t)
	oldID, _ := upload(t, fx.d, "alice", "old.cpu.pb.gz", fixtures.Profile(t, plugintest.CPUFile), 1<<20)
	newID, _ := upload(t, fx.d, "alice", "new.cpu.pb.gz", fixtures.Profile(t, plugintest.SecondCPUFile), 1<<20)
	query := map[string]any{"profileTypeId": cpuType, "maxNodes": 100000}

	fs := adhocFrames(t, fx.d, "alice", "adhoc/get", map[string]any{"ids": []string{newID}, "query": query})
	rows := flameRows(t, fs[0])
	flat, total := pprofFlat(t, exported(t, fx.d, fx.dir, "file.pb.gz", map[string]any{"ids": []string{newID}, "query": query}))
	require.Equal(t, rows[0].Value, total, "exported file's total vs the shown total")
	require.Equal(t, nonZero(selfByName(rows[1:])), nonZero(flat), "exported file's flat vs the shown self")

	for name, req := range map[string]map[string]any{
		"two files":             {"leftIds": []string{oldID}, "rightIds": []string{newID}, "query": query},
		"two files, -normalize": {"leftIds": []string{oldID}, "rightIds": []string{newID}, "query": query, "normalize": true},
		"file against live":     {"leftLive": fx.live, "rightIds": []string{newID}, "query": query},
	} {
		fs := adhocFrames(t, fx.d, "alice", "adhoc/diff", req)
		baseline := flameRows(t, fs[0])[0].Value
		shown := diffByFunction(t, fx.d, req)
		flat, total := pprofFlat(t, exported(t, fx.d, fx.dir, "diff.pb.gz", req))
		require.Equal(t, baseline, total, "%s: pprof's total of the export vs the shown baseline", name)
		require.Equal(t, shown, nonZero(flat), "%s: pprof's flat of the export vs the shown differences", name)
	}
}
