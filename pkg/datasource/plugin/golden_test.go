// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/grafana/grafana-plugin-sdk-go/backend"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/internal/fixtures"
	"github.com/emberscope/emberscope/pkg/datasource/plugin/plugintest"
)

var update = flag.Bool("update", false, "rewrite the golden frames in testdata/")

// pushedProfiles holds the real pprof files pushed to Parca (internal/fixtures).
const pushedProfiles = "parca/pushed-profiles/"

// TestGoldenFrames ingests a real labelled CPU profile into the store and
// checks the frames of several queries against testdata/*.golden.json, in
// Grafana's data frame JSON. Run with -update to rewrite them.
func TestGoldenFrames(t *testing.T) {
	raw := fixtures.Read(t, pushedProfiles+"labeled.cpu.redated.pb.gz")
	url := plugintest.Store(t)
	plugintest.Ingest(t, url, "ride", raw)
	at := time.Unix(0, plugintest.Parse(t, raw).TimeNanos)
	d := newDS(t, url)

	cases := []struct{ name, queryType, js string }{
		{"profile", "profile", `{"profileTypeId":"` + cpuType + `","labelSelector":"{service_name=\"ride\"}","maxNodes":40}`},
		{"frames_from_label", "profile", `{"expr":"frames_from_label(` + cpuType + `{service_name=\"ride\"}, \"category\", sep=\"::\")","maxNodes":30}`},
		{"metrics_by_route", "metrics", `{"profileTypeId":"` + cpuType + `","labelSelector":"{service_name=\"ride\"}","groupBy":["route"]}`},
		{"labels_category", "labels", `{"profileTypeId":"` + cpuType + `","groupBy":["category"]}`},
		{"both", "both", `{"profileTypeId":"` + cpuType + `","labelSelector":"{service_name=\"ride\"}","maxNodes":20}`},
		{"histogram", "histogram", `{"profileTypeId":"` + cpuType + `","labelSelector":"{service_name=\"ride\"}"}`},
		{"diff_car_vs_bike", "diff", `{"profileTypeId":"` + cpuType + `","labelSelector":"{route=\"/car\"}","maxNodes":25,` +
			`"comparison":{"labelSelector":"{route=\"/bike\"}","from":` + itoa(at.Add(-time.Minute).UnixMilli()) + `,"to":` + itoa(at.Add(time.Minute).UnixMilli()) + `}}`},
		{"top_table", "topTable", `{"expr":"focus(` + cpuType + `{route=\"/car\"}, \"main\\\\.\")"}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dq := q("A", c.queryType, c.js)
			dq.TimeRange = backend.TimeRange{From: at.Add(-time.Minute), To: at.Add(time.Minute)}
			dq.MaxDataPoints = 4
			frames := ok(t, run(t, d, dq), "A")
			got, err := json.MarshalIndent(frames, "", "  ")
			require.NoError(t, err)
			golden := filepath.Join("testdata", c.name+".golden.json")
			if *update {
				require.NoError(t, os.MkdirAll("testdata", 0o755))
				require.NoError(t, os.WriteFile(golden, append(got, '\n'), 0o644))
				return
			}
			want, err := os.ReadFile(golden)
			require.NoError(t, err, "run go test -update to write %s", golden)
			require.JSONEq(t, string(want), string(got))
		})
	}
}
