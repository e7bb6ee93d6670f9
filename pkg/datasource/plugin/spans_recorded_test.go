// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/grafana/grafana-plugin-sdk-go/backend"
	"github.com/grafana/grafana-plugin-sdk-go/data"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/internal/fixtures"
	"github.com/emberscope/emberscope/internal/pproforacle"
	"github.com/emberscope/emberscope/pkg/datasource/plugin/plugintest"
)

// spanFiles are the span-labelled CPU profiles of the traced demo service
// (internal/fixtures/cmd/record-spans).
var spanFiles = []string{"cpu-0.pb.gz", "cpu-1.pb.gz", "cpu-2.pb.gz"}

// TestRecordedSpanProfilesAgainstPprof ingests the checked-in span-labelled
// profiles into the embedded store, 10 s apart, and asks the datasource for
// span flamegraphs: for the largest spans of each profile, one at a time
// and two together, the flamegraph's total and every function's self equal
// google/pprof's -tagfocus span_id=... on the files; each profile's exemplar
// opens that profile, whose total is pprof's.
func TestRecordedSpanProfilesAgainstPprof(t *testing.T) {
	url := plugintest.Store(t)
	now := time.Now().Truncate(time.Second)
	paths := make([]string, len(spanFiles))
	for i, f := range spanFiles {
		p := plugintest.Parse(t, fixtures.Read(t, "profiles/spans/"+f))
		p.TimeNanos = now.Add(time.Duration(i-len(spanFiles)) * 10 * time.Second).UnixNano()
		var buf bytes.Buffer
		require.NoError(t, p.Write(&buf))
		// the oracle reads the very bytes the store was sent
		paths[i] = filepath.Join(t.TempDir(), f)
		require.NoError(t, os.WriteFile(paths[i], buf.Bytes(), 0o600))
		plugintest.Ingest(t, url, "traced-demo", buf.Bytes())
	}
	inst, err := NewDatasource(context.Background(), backend.DataSourceInstanceSettings{
		UID: "store", Name: "Store", Type: PluginID, URL: url, JSONData: json.RawMessage(`{"serverKind":"pyroscope","minStep":"1s"}`),
	})
	require.NoError(t, err)
	d := inst.(*Datasource)
	tr := backend.TimeRange{From: now.Add(-time.Minute), To: now.Add(time.Minute)}
	query := func(refID, queryType, js string) data.Frames {
		return ok(t, run(t, d, backend.DataQuery{RefID: refID, QueryType: queryType, JSON: json.RawMessage(js), TimeRange: tr, MaxDataPoints: 120, Interval: time.Second}), refID)
	}
	const base = `"profileTypeId":"process_cpu:cpu:nanoseconds:cpu:nanoseconds","labelSelector":"{service_name=\"traced-demo\"}","maxNodes":1048576`

	for i, path := range paths {
		all := pproforacle.Top(t, path, pproforacle.Options{SampleType: "cpu"})
		ids := largestSpans(t, path, 2)
		for _, sel := range [][]string{{ids[0]}, {ids[1]}, ids} {
			var want int64
			wantSelf := map[string]int64{}
			for _, id := range sel {
				r := pproforacle.Top(t, path, pproforacle.Options{SampleType: "cpu", Labels: map[string]string{"span_id": id}})
				want += r.Total
				for n, v := range r.Flat() {
					wantSelf[n] += v
				}
			}
			js, _ := json.Marshal(sel)
			rows := flameRows(t, query("A", "profile", `{`+base+`,"spanSelector":`+string(js)+`}`)[0])
			assert.Equal(t, want, rows[0].Value, "profile %d spans %v: total as pprof -tagfocus", i, sel)
			assert.Less(t, want, all.Total, "a span is a part of its profile")
			self := map[string]int64{}
			for _, r := range rows[1:] {
				self[r.Label] += r.Self
			}
			assert.Equal(t, wantSelf, nonZeroSelf(self), "profile %d spans %v: self per function", i, sel)
		}
	}

	fs := query("B", "metrics", `{`+base+`,"includeExemplars":true}`)
	var ex *data.Frame
	for _, f := range fs {
		if f.Name == "exemplar" {
			ex = f
		}
	}
	require.NotNil(t, ex)
	require.Equal(t, len(paths), ex.Rows(), "one exemplar per profile (1 s steps, profiles 10 s apart)")
	id, _ := ex.FieldByName("Id")
	at, _ := ex.FieldByName("Time")
	for i := 0; i < ex.Rows(); i++ {
		k := sort.Search(len(paths), func(k int) bool {
			return !now.Add(time.Duration(k-len(spanFiles)) * 10 * time.Second).Before(at.At(i).(time.Time))
		})
		require.Less(t, k, len(paths), "exemplar %d at %s is one of the ingested profiles", i, at.At(i))
		js, _ := json.Marshal([]string{id.At(i).(string)})
		rows := flameRows(t, query("C", "profile", `{`+base+`,"profileIdSelector":`+string(js)+`}`)[0])
		assert.Equal(t, pproforacle.Top(t, paths[k], pproforacle.Options{SampleType: "cpu"}).Total, rows[0].Value, "exemplar %d opens profile %d", i, k)
	}
}

// largestSpans lists the n span ids of most CPU in a profile, as google/pprof
// reports them (`go tool pprof -tags`), ties by id.
func largestSpans(t *testing.T, path string, n int) []string {
	t.Helper()
	p := plugintest.Parse(t, mustRead(t, path))
	totals := map[string]int64{}
	for _, s := range p.Sample {
		if ids := s.Label["span_id"]; len(ids) == 1 {
			totals[ids[0]] += s.Value[plugintest.SampleIndex(t, p, "cpu")]
		}
	}
	ids := make([]string, 0, len(totals))
	for id := range totals {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(a, b int) bool {
		if totals[ids[a]] != totals[ids[b]] {
			return totals[ids[a]] > totals[ids[b]]
		}
		return ids[a] < ids[b]
	})
	require.GreaterOrEqual(t, len(ids), n, "%s has span_id labels", path)
	for _, id := range ids[:n] {
		require.Len(t, id, 16, fmt.Sprintf("span id %q", id))
		require.Equal(t, strings.ToLower(id), id)
	}
	return ids[:n]
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return b
}
