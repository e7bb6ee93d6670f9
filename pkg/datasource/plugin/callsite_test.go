// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/grafana/grafana-plugin-sdk-go/backend"
	"github.com/grafana/grafana-plugin-sdk-go/data"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/internal/fixtures"
	"github.com/emberscope/emberscope/internal/pproforacle"
	"github.com/emberscope/emberscope/pkg/datasource/plugin/plugintest"
	"github.com/emberscope/emberscope/pkg/datasource/settings"
	"github.com/emberscope/emberscope/pkg/datasource/source"
	"github.com/emberscope/emberscope/pkg/datasource/source/pyroscope"
)

// deepFile is a real allocation profile whose call tree has more than
// 130,000 nodes (internal/fixtures/cmd/record-deep).
const (
	deepFile = "deep.alloc.pb.gz"
	deepType = "memory:alloc_space:bytes:space:bytes"
)

// deepStore is a store holding deepFile as service "deep", filed now, and
// the oracle: pprof's traces of the file.
type deepFixture struct {
	url    string
	traces []pproforacle.Trace
	// parts are the profiles the file was sent as, with their times and
	// pprof's traces of each.
	parts []deepPart
	// callSites are deepCallSites' 20 call sites of traces, picked once for
	// every test (a test wanting fewer takes the first ones).
	callSites [][]string
}

type deepPart struct {
	time   time.Time
	traces []pproforacle.Trace
}

var (
	deepOnce   sync.Once
	deepShared deepFixture
)

func deepStore(t *testing.T) deepFixture {
	t.Helper()
	deepOnce.Do(func() {
		url := plugintest.Store(&keepAlive{T: t})
		var parts []deepPart
		dir := osTempDir(t)
		for i, part := range splitProfile(t, fixtures.Profile(t, deepFile), 15000) {
			plugintest.Ingest(t, url, "deep", part)
			file := filepath.Join(dir, fmt.Sprintf("part-%d.pb.gz", i))
			require.NoError(t, os.WriteFile(file, part, 0o600))
			parts = append(parts, deepPart{
				time:   time.Unix(0, plugintest.Parse(t, part).TimeNanos),
				traces: pproforacle.Traces(t, file, "-sample_index=alloc_space", "-unit=B"),
			})
		}
		traces := pproforacle.Traces(t, fixtures.ProfilePath(t, deepFile), "-sample_index=alloc_space", "-unit=B")
		deepShared = deepFixture{
			parts:     parts,
			url:       url,
			traces:    traces,
			callSites: deepCallSites(t, traces, 20),
		}
	})
	if deepShared.url == "" {
		t.Fatal("deep store fixture failed in an earlier test")
	}
	return deepShared
}

// splitProfile cuts a profile into profiles of at most n samples each (the
// store takes at most 16,000 samples a profile), filed a minute apart
// ending now, as a profiler sending the same work in pieces would.
func splitProfile(t *testing.T, b []byte, n int) [][]byte {
	t.Helper()
	// Each part is written from the one parsed profile with its samples
	// swapped: Write reads the samples it is given, and a deep copy per part
	// cost more than the parts' ingestion.
	p := plugintest.Parse(t, b)
	samples := p.Sample
	now := time.Now()
	var out [][]byte
	for i := 0; i*n < len(samples); i++ {
		p.Sample = samples[i*n : min((i+1)*n, len(samples))]
		p.TimeNanos = now.Add(-time.Duration(i) * time.Minute).UnixNano()
		var buf bytes.Buffer
		require.NoError(t, p.Write(&buf))
		out = append(out, buf.Bytes())
	}
	p.Sample = samples
	return out
}

// subtreeNode is one node of a call tree keyed by its stack from the root.
type subtreeNode struct{ Total, Self int64 }

// oracleCallSite is the tree of the traces whose root-side frames equal
// path, as stack key ("a;b;c") to total and self, and their total.
func oracleCallSite(traces []pproforacle.Trace, path []string) (map[string]subtreeNode, int64) {
	out := map[string]subtreeNode{}
	var total int64
	for _, tr := range traces {
		if len(tr.Stack) < len(path) || !slices.Equal(tr.Stack[:len(path)], path) {
			continue
		}
		total += tr.Value
		for i := range tr.Stack {
			key := strings.Join(tr.Stack[:i+1], ";")
			n := out[key]
			n.Total += tr.Value
			if i == len(tr.Stack)-1 {
				n.Self += tr.Value
			}
			out[key] = n
		}
	}
	return out, total
}

// oracleTotal is oracleCallSite's total alone, for the checks that compare
// totals only: building the whole tree's map per step and side cost more
// than the queries under test.
func oracleTotal(traces []pproforacle.Trace, path []string) int64 {
	var total int64
	for _, tr := range traces {
		if len(tr.Stack) >= len(path) && slices.Equal(tr.Stack[:len(path)], path) {
			total += tr.Value
		}
	}
	return total
}

// frameTree reads a flamegraph frame into stack key to total and self; the
// root is left out.
func frameTree(t *testing.T, f *data.Frame) map[string]subtreeNode {
	t.Helper()
	rows := flameRows(t, f)
	out := map[string]subtreeNode{}
	var stack []string
	for _, r := range rows[1:] {
		stack = append(stack[:r.Level-1], r.Label)
		key := strings.Join(stack, ";")
		if _, twice := out[key]; twice {
			t.Fatalf("two nodes for the stack %s", key)
		}
		out[key] = subtreeNode{Total: r.Value, Self: r.Self}
	}
	return out
}

// deepCallSites picks n call sites deep in the trie: the root-side frames of
// spread-out traces, cut where the descent is between 4 and 15 levels deep,
// so each subtree fits in maxNodes and no two are alike.
func deepCallSites(t *testing.T, traces []pproforacle.Trace, n int) [][]string {
	t.Helper()
	// Sorted by the joined stack, joined once per trace rather than per comparison.
	type descent struct {
		key   string
		stack []string
	}
	var descents []descent
	for _, tr := range traces {
		if slices.Contains(tr.Stack, "main.descend") && len(tr.Stack) > 16 {
			descents = append(descents, descent{strings.Join(tr.Stack, ";"), tr.Stack})
		}
	}
	require.GreaterOrEqual(t, len(descents), 1<<15, "the trie's leaves are in the profile")
	sort.Slice(descents, func(i, j int) bool { return descents[i].key < descents[j].key })
	var out [][]string
	for i := range n {
		stack := descents[(i*7919)%len(descents)].stack
		at := slices.Index(stack, "main.descend")
		depth := 4 + i%12
		out = append(out, slices.Clone(stack[:at+1+depth]))
	}
	return out
}

// TestFocusGivesTheUncutSubtree focuses a profile of more than 100,000 nodes,
// cut at 16,384, on 20 deep call sites: each answer is the subtree of the
// uncut profile node for node, as pprof's traces give it, with the whole
// graph's total beside it.
func TestFocusGivesTheUncutSubtree(t *testing.T) {
	fx := deepStore(t)
	d := newDS(t, fx.url)
	all, wholeTotal := oracleCallSite(fx.traces, nil)
	require.Greater(t, len(all), 100_000, "the uncut profile has more than 100,000 nodes")

	base := `"profileTypeId":"` + deepType + `","labelSelector":"{service_name=\"deep\"}","maxNodes":16384`
	cut := frameTree(t, ok(t, run(t, d, q("A", "profile", "{"+base+"}")), "A")[0])
	require.LessOrEqual(t, len(cut), 16384, "the shown graph is cut at maxNodes")

	for _, path := range fx.callSites {
		want, siteTotal := oracleCallSite(fx.traces, path)
		require.Positive(t, siteTotal)
		callSite, err := json.Marshal(path)
		require.NoError(t, err)
		frames := ok(t, run(t, d, q("F", "profile", "{"+base+`,"callSite":`+string(callSite)+"}")), "F")
		require.Len(t, frames, 1)
		rows := flameRows(t, frames[0])
		require.Equal(t, siteTotal, rows[0].Value, "the root holds the call site's total")
		require.Equal(t, want, frameTree(t, frames[0]), "focus on %s: the uncut subtree, node for node", strings.Join(path, ";"))
		site := callSiteMeta(t, frames[0])
		require.Equal(t, selectedByServer, site.SelectedBy, "the store selects the call site")
		require.Equal(t, wholeTotal, site.WholeTotal, "widths stay against the whole graph")
		require.Equal(t, path, site.Path)
	}
}

// callSiteMeta reads the frame's custom meta callSite.
func callSiteMeta(t *testing.T, f *data.Frame) callSiteInfo {
	t.Helper()
	require.NotNil(t, f.Meta)
	b, err := json.Marshal(f.Meta.Custom)
	require.NoError(t, err)
	var m struct {
		CallSite *callSiteInfo `json:"callSite"`
	}
	require.NoError(t, json.Unmarshal(b, &m))
	require.NotNil(t, m.CallSite, "the frame says how the call site was selected")
	return *m.CallSite
}

// noSelector hides the client's call site selector, as a Parca server has
// none: the datasource must filter the merged profile itself.
type noSelector struct{ source.Source }

// TestFocusFilteredByTheDatasource is the same focus through a client whose
// server has no call site selector: the datasource filters the range's
// merged profile, and says so. Three call sites, the shallowest (4 levels
// into the descent), a middle one (9) and the deepest (15) of deepCallSites,
// span the depths: each query merges and sends the whole 130,000-node
// profile, the costliest query of the package under the race detector.
func TestFocusFilteredByTheDatasource(t *testing.T) {
	fx := deepStore(t)
	s, err := settings.Load(backend.DataSourceInstanceSettings{URL: fx.url, JSONData: json.RawMessage(`{"minStep":"15s"}`)})
	require.NoError(t, err)
	d := New(s, noSelector{pyroscope.NewWithHTTPClient(fx.url, http.DefaultClient)})
	wholeTotal := oracleTotal(fx.traces, nil)
	base := `"profileTypeId":"` + deepType + `","labelSelector":"{service_name=\"deep\"}","maxNodes":16384`
	for _, path := range [][]string{fx.callSites[0], fx.callSites[5], fx.callSites[11]} {
		want, siteTotal := oracleCallSite(fx.traces, path)
		callSite, err := json.Marshal(path)
		require.NoError(t, err)
		frames := ok(t, run(t, d, q("F", "profile", "{"+base+`,"callSite":`+string(callSite)+"}")), "F")
		require.Equal(t, siteTotal, flameRows(t, frames[0])[0].Value)
		require.Equal(t, want, frameTree(t, frames[0]), "focus on %s: the uncut subtree, node for node", strings.Join(path, ";"))
		site := callSiteMeta(t, frames[0])
		require.Equal(t, selectedByDatasource, site.SelectedBy)
		require.Equal(t, wholeTotal, site.WholeTotal)
		require.Contains(t, frames[0].Meta.Notices[len(frames[0].Meta.Notices)-1].Text, "the datasource filtered")
	}
}

// osTempDir is a directory that outlives the test, for the shared fixture.
func osTempDir(t *testing.T) string {
	t.Helper()
	dir, err := osMkdirTemp()
	require.NoError(t, err)
	return dir
}

// TestCallSiteSeriesMatchesPerStepTraces checks the call path series: per
// step, the value equals pprof's trace total of the path over the profiles
// filed in that step, and the share that value over the step's whole total.
func TestCallSiteSeriesMatchesPerStepTraces(t *testing.T) {
	fx := deepStore(t)
	d := newDS(t, fx.url)
	paths := fx.callSites
	for _, path := range [][]string{paths[0], paths[7]} {
		callSite, err := json.Marshal(path)
		require.NoError(t, err)
		frames := ok(t, run(t, d, q("S", "callSiteSeries", `{"profileTypeId":"`+deepType+`","labelSelector":"{service_name=\"deep\"}","callSite":`+string(callSite)+"}")), "S")
		require.Len(t, frames, 1)
		f := frames[0]
		times, values, shares := f.Fields[0], f.Fields[1], f.Fields[2]
		require.GreaterOrEqual(t, times.Len(), 2)
		step := times.At(1).(time.Time).Sub(times.At(0).(time.Time))
		seen := 0
		for i := 0; i < times.Len(); i++ {
			from := times.At(i).(time.Time)
			var want, whole int64
			for _, p := range fx.parts {
				if !p.time.Before(from) && p.time.Before(from.Add(step)) {
					want += oracleTotal(p.traces, path)
					whole += oracleTotal(p.traces, nil)
					seen++
				}
			}
			require.Equal(t, float64(want), values.At(i).(float64), "step at %s", from)
			if whole > 0 {
				require.InDelta(t, float64(want)/float64(whole), shares.At(i).(float64), 1e-12, "share at %s", from)
			} else {
				require.Zero(t, shares.At(i).(float64))
			}
		}
		require.Equal(t, len(fx.parts), seen, "every profile falls in one step")
	}
}

// TestDiffFocusesEachSide: a diff carries a call site per side; each side's
// root is its call site's total as pprof's traces give it, and the frame
// says both call sites with the whole graph's total.
func TestDiffFocusesEachSide(t *testing.T) {
	fx := deepStore(t)
	d := newDS(t, fx.url)
	left, right := fx.callSites[3], fx.callSites[4]
	wantLeft := oracleTotal(fx.traces, left)
	wantRight := oracleTotal(fx.traces, right)
	whole := oracleTotal(fx.traces, nil)
	lj, err := json.Marshal(left)
	require.NoError(t, err)
	rj, err := json.Marshal(right)
	require.NoError(t, err)
	dq := q("D", "diff", "")
	from, to := dq.TimeRange.From.UnixMilli(), dq.TimeRange.To.UnixMilli()
	dq = q("D", "diff", `{"profileTypeId":"`+deepType+`","labelSelector":"{service_name=\"deep\"}","callSite":`+string(lj)+`,`+
		`"comparison":{"labelSelector":"{service_name=\"deep\"}","from":`+itoa(from)+`,"to":`+itoa(to)+`,"callSite":`+string(rj)+`}}`)
	f := ok(t, run(t, d, dq), "D")[0]
	value, _ := f.FieldByName("value")
	valueRight, _ := f.FieldByName("valueRight")
	require.Equal(t, wantLeft, value.At(0).(int64), "left root: the left call site's total")
	require.Equal(t, wantRight, valueRight.At(0).(int64), "right root: the right call site's total")
	b, err := json.Marshal(f.Meta.Custom)
	require.NoError(t, err)
	var m struct {
		CallSite           callSiteInfo `json:"callSite"`
		ComparisonCallSite callSiteInfo `json:"comparisonCallSite"`
	}
	require.NoError(t, json.Unmarshal(b, &m))
	require.Equal(t, left, m.CallSite.Path)
	require.Equal(t, right, m.ComparisonCallSite.Path)
	require.Equal(t, whole, m.CallSite.WholeTotal)
	require.Equal(t, whole, m.ComparisonCallSite.WholeTotal)
}
