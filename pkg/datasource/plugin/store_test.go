// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/pprof/profile"
	"github.com/grafana/grafana-plugin-sdk-go/data"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/pkg/datasource/plugin/plugintest"
)

const heapType = "memory:inuse_space:bytes:space:bytes"

// fixture is a store holding the recorded CPU profile (plugintest.CPUFile)
// and heap profile (plugintest.HeapFile) of service "shop", filed at the
// current time, shared by the tests of the package.
type fixture struct {
	url       string
	cpu, heap *profile.Profile
}

var (
	fixtureOnce sync.Once
	shared      fixture
)

func storeFixture(t *testing.T) fixture {
	t.Helper()
	fixtureOnce.Do(func() {
		// The store outlives this test: it serves every test of the package.
		url := plugintest.Store(&keepAlive{T: t})
		cpu := plugintest.CPUProfile(t)
		heap := plugintest.HeapProfile(t)
		plugintest.Ingest(t, url, "shop{env=test}", cpu)
		plugintest.Ingest(t, url, "shop{env=test}", heap)
		shared = fixture{url: url, cpu: plugintest.Parse(t, cpu), heap: plugintest.Parse(t, heap)}
	})
	if shared.url == "" {
		t.Fatal("store fixture failed in an earlier test")
	}
	return shared
}

// keepAlive is a testing.TB whose cleanups never run, for a fixture shared
// by the whole package; the process exit reclaims it.
type keepAlive struct{ *testing.T }

func (k *keepAlive) Cleanup(func()) {}
func (k *keepAlive) TempDir() string {
	dir, err := osMkdirTemp()
	if err != nil {
		k.Fatal(err)
	}
	return dir
}

// TestProfileMatchesGooglePprof checks the flamegraph's root total and every
// function's self against google/pprof (the oracle: go tool pprof -top),
// generic functions included.
func TestProfileMatchesGooglePprof(t *testing.T) {
	fx := storeFixture(t)
	d := newDS(t, fx.url)
	want := plugintest.Pprof(t, plugintest.CPUFile, "cpu")
	total := want.Total
	require.Positive(t, total, "the CPU profile has samples")

	resp := run(t, d, q("A", "profile", `{"profileTypeId":"`+cpuType+`","labelSelector":"{service_name=\"shop\"}"}`))
	frames := ok(t, resp, "A")
	require.Len(t, frames, 1)
	require.Equal(t, "A", frames[0].RefID)
	rows := flameRows(t, frames[0])
	require.Equal(t, flameRow{Level: 0, Value: total, Self: 0, Label: "total"}, rows[0], "root total = pprof total")
	require.Equal(t, want.Flat(), nonZero(selfByName(rows)), "self = pprof flat, for every function")
	require.Positive(t, want.Flat()[plugintest.FuncName("burnSearch")]+want.Cum()[plugintest.FuncName("burnSearch")], "the handlers are in the profile")
}

// nonZero drops the zero values of m.
func nonZero(m map[string]int64) map[string]int64 {
	out := map[string]int64{}
	for k, v := range m {
		if v != 0 {
			out[k] = v
		}
	}
	return out
}

// TestHeapProfileMatchesGooglePprof checks the in-use heap flamegraph
// against google/pprof (the oracle: go tool pprof -top).
func TestHeapProfileMatchesGooglePprof(t *testing.T) {
	fx := storeFixture(t)
	d := newDS(t, fx.url)
	want := plugintest.Pprof(t, plugintest.HeapFile, "inuse_space")
	resp := run(t, d, q("H", "profile", `{"profileTypeId":"`+heapType+`","labelSelector":"{service_name=\"shop\"}"}`))
	rows := flameRows(t, ok(t, resp, "H")[0])
	require.Equal(t, want.Total, rows[0].Value)
	self := selfByName(rows)
	require.Equal(t, want.Flat(), nonZero(self), "self = pprof flat, for every function")
	require.GreaterOrEqual(t, self[plugintest.FuncName("allocLarge")], int64(4<<20), "the 4 MiB allocation is in use")
}

func TestMetricsGroupBySumsToTotal(t *testing.T) {
	fx := storeFixture(t)
	d := newDS(t, fx.url)
	total := plugintest.Pprof(t, plugintest.CPUFile, "cpu").Total
	byRoute := plugintest.CPUByRoute(t)

	resp := run(t, d, q("M", "metrics", `{"profileTypeId":"`+cpuType+`","labelSelector":"{service_name=\"shop\"}","groupBy":["route"]}`))
	frames := ok(t, resp, "M")
	sum, n, per := seriesSum(t, frames)
	require.Equal(t, float64(total), sum, "the series of every route sum to the profile's total")
	require.Equal(t, len(byRoute), n, "one series per route, and one without the label")
	for _, r := range plugintest.Routes {
		found := false
		for k, v := range per {
			if strings.Contains(k, r) {
				require.Equal(t, float64(byRoute[r]), v, "route %s", r)
				found = true
			}
		}
		require.True(t, found, "series of route %s", r)
	}
	require.Equal(t, "ns", frames[0].Fields[1].Config.Unit)
}

func TestMetricsLimitFoldsIntoOther(t *testing.T) {
	fx := storeFixture(t)
	d := newDS(t, fx.url)
	total := plugintest.Pprof(t, plugintest.CPUFile, "cpu").Total
	resp := run(t, d, q("L", "metrics", `{"profileTypeId":"`+cpuType+`","labelSelector":"{service_name=\"shop\"}","groupBy":["route"],"limit":1}`))
	frames := ok(t, resp, "L")
	sum, n, per := seriesSum(t, frames)
	require.Equal(t, 2, n, "the largest series and other")
	require.Equal(t, float64(total), sum)
	require.Contains(t, per, "other")
	require.NotEmpty(t, frames[0].Meta.Notices)
	require.Contains(t, frames[0].Meta.Notices[0].Text, "Showing the 1 largest of 3 series")
}

func TestBothIsFlamegraphAndSeries(t *testing.T) {
	fx := storeFixture(t)
	d := newDS(t, fx.url)
	total := plugintest.Pprof(t, plugintest.CPUFile, "cpu").Total
	// No queryType: Explore's default, both.
	resp := run(t, d, q("B", "", `{"profileTypeId":"`+cpuType+`","labelSelector":"{service_name=\"shop\"}"}`))
	frames := ok(t, resp, "B")
	fg := frameOf(frames, data.VisTypeFlameGraph)
	require.NotNil(t, fg)
	require.Equal(t, total, flameRows(t, fg)[0].Value)
	sum, n, _ := seriesSum(t, frames)
	require.Equal(t, 1, n)
	require.Equal(t, float64(total), sum)
}

func TestFramesFromLabel(t *testing.T) {
	fx := storeFixture(t)
	d := newDS(t, fx.url)
	total := plugintest.Pprof(t, plugintest.CPUFile, "cpu").Total
	byRoute := plugintest.CPUByRoute(t)
	resp := run(t, d, q("V", "profile", `{"expr":"`+cpuType+`{service_name=\"shop\"} by (route)"}`))
	rows := flameRows(t, ok(t, resp, "V")[0])
	require.Equal(t, total, rows[0].Value)
	got := map[string]int64{}
	for _, r := range rows {
		if r.Level == 1 {
			require.True(t, r.Virtual, "the base frames come from the label: %+v", r)
			got[r.Label] = r.Value
		}
	}
	for _, route := range plugintest.Routes {
		require.Equal(t, byRoute[route], got[route], "virtual frame of route %s", route)
	}
}

func TestTransformsApply(t *testing.T) {
	fx := storeFixture(t)
	d := newDS(t, fx.url)
	flat := plugintest.Pprof(t, plugintest.CPUFile, "cpu").Flat()
	resp := run(t, d,
		q("R", "profile", `{"expr":"reverse(`+cpuType+`{service_name=\"shop\"})"}`),
		q("F", "profile", `{"expr":"focus(`+cpuType+`{service_name=\"shop\"}, \"burnCheckout\")"}`),
		q("T", "profile", `{"profileTypeId":"`+cpuType+`","labelSelector":"{service_name=\"shop\"}","maxNodes":5}`),
	)
	// Reversed, each leaf function sits right under the root with its flat
	// value (google/pprof's, the oracle), and every one of them is there.
	leaves := map[string]int64{}
	for _, r := range flameRows(t, ok(t, resp, "R")[0]) {
		if r.Level == 1 {
			leaves[r.Label] += r.Value
		}
	}
	require.Equal(t, flat, leaves)
	focused := flameRows(t, ok(t, resp, "F")[0])
	require.Equal(t, plugintest.FuncName("burnCheckout"), focused[1].Label)
	truncated := flameRows(t, ok(t, resp, "T")[0])
	require.LessOrEqual(t, len(truncated), 5)
}

func TestTopTableAndDiffAndLabels(t *testing.T) {
	fx := storeFixture(t)
	d := newDS(t, fx.url)
	want := plugintest.Pprof(t, plugintest.CPUFile, "cpu")
	total := want.Total
	now := time.Now()
	from, to := now.Add(-time.Hour).UnixMilli(), now.Add(time.Minute).UnixMilli()
	resp := run(t, d,
		q("TOP", "topTable", `{"profileTypeId":"`+cpuType+`","labelSelector":"{service_name=\"shop\"}"}`),
		q("DIFF", "diff", `{"profileTypeId":"`+cpuType+`","labelSelector":"{service_name=\"shop\"}","comparison":{"labelSelector":"{route=\"/search\"}","from":`+itoa(from)+`,"to":`+itoa(to)+`}}`),
		q("LAB", "labels", `{"profileTypeId":"`+cpuType+`","labelSelector":"{service_name=\"shop\"}","groupBy":["route"]}`),
	)
	top := ok(t, resp, "TOP")[0]
	sym, _ := top.FieldByName("symbol")
	selfF, _ := top.FieldByName("self")
	gotSelf := map[string]int64{}
	for i := 0; i < top.Rows(); i++ {
		if s := selfF.At(i).(int64); s != 0 && sym.At(i).(string) != "total" {
			gotSelf[sym.At(i).(string)] = s
		}
	}
	require.Equal(t, want.Flat(), gotSelf, "top table self = google/pprof flat, every function")
	diff := ok(t, resp, "DIFF")[0]
	vr, _ := diff.FieldByName("valueRight")
	v, _ := diff.FieldByName("value")
	right := plugintest.CPUByRoute(t)["/search"]
	require.Equal(t, right, vr.At(0).(int64), "right root = the /search samples")
	require.Equal(t, total, v.At(0).(int64), "value = the baseline, as @grafana/flamegraph reads it")

	lab := ok(t, resp, "LAB")[0]
	totalF, _ := lab.FieldByName("total")
	var sum int64
	for i := 0; i < lab.Rows(); i++ {
		sum += totalF.At(i).(int64)
	}
	require.Equal(t, total, sum, "the values' contributions sum to the total")
}

func TestHistogramCountsProfiles(t *testing.T) {
	fx := storeFixture(t)
	d := newDS(t, fx.url)
	resp := run(t, d, q("HIST", "histogram", `{"profileTypeId":"`+cpuType+`","labelSelector":"{service_name=\"shop\"}"}`))
	f := ok(t, resp, "HIST")[0]
	require.Equal(t, data.FrameType("heatmap-cells"), f.Meta.Type)
	count, _ := f.FieldByName("count")
	var n int64
	for i := 0; i < count.Len(); i++ {
		n += count.At(i).(int64)
	}
	// One ingested profile, counted once with its whole total as Pyroscope
	// counts it (recording 28), although its routes are series of their own.
	require.Equal(t, int64(1), n, "one profile")
	require.Empty(t, f.Meta.Notices, "the store has a heatmap API: individual profiles are counted")
}
