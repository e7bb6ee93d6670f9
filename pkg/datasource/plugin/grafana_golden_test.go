// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/grafana/grafana-plugin-sdk-go/backend"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/internal/fixtures"
	"github.com/emberscope/emberscope/pkg/datasource/plugin/plugintest"
)

// The profiles of the frames in testdata/grafana/, which the frontend's
// tests render through @grafana/flamegraph and check against pprof's own
// numbers for the same files (src/shared/grafanaFlamegraph.test.ts).
const (
	labeledProfile = "pyroscope/pushed-profiles/labeled.cpu.redated.pb.gz"
	sortProfile    = "pyroscope/pushed-profiles/bench-sort.cpu.redated.pb.gz"
)

// TestGrafanaGoldenFrames ingests two real CPU profiles, labeled (3.77 s)
// as service "labeled" and bench-sort (23.52 s) as service "sort", and
// checks against testdata/grafana/*.golden.json the whole (untruncated)
// frames of a profile query of "labeled" and of a diff of "labeled" (the
// baseline) against "sort" (the comparison). Run with -update to rewrite them.
func TestGrafanaGoldenFrames(t *testing.T) {
	labeled := fixtures.Read(t, labeledProfile)
	sorted := fixtures.Read(t, sortProfile)
	url := plugintest.Store(t)
	plugintest.Ingest(t, url, "labeled", labeled)
	plugintest.Ingest(t, url, "sort", sorted)
	atL := time.Unix(0, plugintest.Parse(t, labeled).TimeNanos)
	atS := time.Unix(0, plugintest.Parse(t, sorted).TimeNanos)
	d := newDS(t, url)
	rangeL := backend.TimeRange{From: atL.Add(-time.Minute), To: atL.Add(time.Minute)}

	cases := []struct{ name, queryType, js string }{
		{"profile_labeled", "profile", `{"profileTypeId":"` + cpuType + `","labelSelector":"{service_name=\"labeled\"}","maxNodes":1048576}`},
		{"diff_labeled_vs_sort", "diff", `{"profileTypeId":"` + cpuType + `","labelSelector":"{service_name=\"labeled\"}","maxNodes":1048576,` +
			`"comparison":{"labelSelector":"{service_name=\"sort\"}","from":` + itoa(atS.Add(-time.Minute).UnixMilli()) + `,"to":` + itoa(atS.Add(time.Minute).UnixMilli()) + `}}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dq := q("A", c.queryType, c.js)
			dq.TimeRange = rangeL
			frames := ok(t, run(t, d, dq), "A")
			got, err := json.Marshal(frames)
			require.NoError(t, err)
			golden := filepath.Join("testdata", "grafana", c.name+".golden.json")
			if *update {
				require.NoError(t, os.WriteFile(golden, append(got, '\n'), 0o644))
				return
			}
			want, err := os.ReadFile(golden)
			require.NoError(t, err, "run go test ./pkg/datasource/plugin -run TestGrafanaGoldenFrames -update to write %s", golden)
			require.JSONEq(t, string(want), string(got))
		})
	}
}
