// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/grafana/grafana-plugin-sdk-go/backend"
	"github.com/grafana/grafana-plugin-sdk-go/data"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/internal/fixtures"
	"github.com/emberscope/emberscope/internal/pyroscopereplay"
	"github.com/emberscope/emberscope/pkg/datasource/plugin/plugintest"
	"github.com/emberscope/emberscope/pkg/datasource/source"
	"github.com/emberscope/emberscope/pkg/store"
	"github.com/emberscope/emberscope/pkg/store/limits"
)

// weekStart is the first instant of the week the limit tests fill.
var weekStart = time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC)

const day = 24 * time.Hour

// limitStore starts the embedded store with -max-query-length maxLen (0:
// off) and backfill (no ingest window, no retention).
func limitStore(t *testing.T, maxLen time.Duration) string {
	t.Helper()
	lim := limits.Backfill()
	lim.MaxQueryLength = maxLen
	st, err := store.Open(store.Options{Dir: t.TempDir(), Limits: &lim})
	require.NoError(t, err)
	srv := httptest.NewServer(st.Handler())
	t.Cleanup(func() {
		srv.Close()
		require.NoError(t, st.Close())
	})
	return srv.URL
}

// at returns a recorded profile filed at time ts.
func at(t *testing.T, file string, ts time.Time) []byte {
	t.Helper()
	p := plugintest.Parse(t, fixtures.Profile(t, file))
	p.TimeNanos = ts.UnixNano()
	var buf bytes.Buffer
	require.NoError(t, p.Write(&buf))
	return buf.Bytes()
}

// fillWeek pushes, to every store given, the two recorded CPU profiles of
// service "shop" on each of the 7 days (at 03:17 and 15:42:30), and to
// service "edge" one profile exactly on the boundary of days 2 and 3 and
// one 30 minutes later.
func fillWeek(t *testing.T, urls ...string) {
	t.Helper()
	for d := range 7 {
		base := weekStart.Add(time.Duration(d) * day)
		one := at(t, plugintest.CPUFile, base.Add(3*time.Hour+17*time.Minute))
		two := at(t, plugintest.SecondCPUFile, base.Add(15*time.Hour+42*time.Minute+30*time.Second))
		for _, u := range urls {
			plugintest.Ingest(t, u, "shop{env=test}", one)
			plugintest.Ingest(t, u, "shop{env=test}", two)
		}
	}
	edge := at(t, plugintest.CPUFile, weekStart.Add(2*day))
	later := at(t, plugintest.SecondCPUFile, weekStart.Add(2*day+30*time.Minute))
	for _, u := range urls {
		plugintest.Ingest(t, u, "edge", edge)
		plugintest.Ingest(t, u, "edge", later)
	}
}

func newDSWith(t *testing.T, url, jsonData string) *Datasource {
	t.Helper()
	inst, err := NewDatasource(context.Background(), backend.DataSourceInstanceSettings{
		UID: "emberscope", Type: PluginID, URL: url, JSONData: json.RawMessage(jsonData),
	})
	require.NoError(t, err)
	d := inst.(*Datasource)
	t.Cleanup(d.Dispose)
	return d
}

// rangeQ is a query over [from, to] whose series step is step.
func rangeQ(refID, queryType, js string, from, to time.Time, step time.Duration) backend.DataQuery {
	return backend.DataQuery{RefID: refID, QueryType: queryType, JSON: json.RawMessage(js),
		TimeRange: backend.TimeRange{From: from, To: to}, MaxDataPoints: 100000, Interval: step}
}

func shopQ(svc string) string {
	return `{"profileTypeId":"` + cpuType + `","labelSelector":"{service_name=\"` + svc + `\"}"}`
}

// points reads series frames as value per label set per time (ms).
func points(t *testing.T, frames data.Frames) map[string]map[int64]float64 {
	t.Helper()
	out := map[string]map[int64]float64{}
	for _, f := range frames {
		if f.Meta != nil && f.Meta.PreferredVisualization == data.VisTypeFlameGraph {
			continue
		}
		require.GreaterOrEqual(t, len(f.Fields), 2)
		ts, v := f.Fields[0], f.Fields[1]
		key := fmt.Sprint(v.Labels)
		if out[key] == nil {
			out[key] = map[int64]float64{}
		}
		for i := 0; i < v.Len(); i++ {
			out[key][ts.At(i).(time.Time).UnixMilli()] += v.At(i).(float64)
		}
	}
	return out
}

func noticesOf(frames data.Frames) []string {
	var out []string
	for _, f := range frames {
		if f.Meta == nil {
			continue
		}
		for _, n := range f.Meta.Notices {
			out = append(out, n.Text)
		}
	}
	return out
}

const splitNotice = "The time range is longer than the profile server's max_query_length (1d): it was queried as 7 pieces of ≤ 1d and the answers merged."

// TestWeekOnALimitedServer runs the datasource against the store refusing
// ranges over a day as Pyroscope does (-max-query-length 24h, Pyroscope's
// default and its exact error) and against the same store without the
// limit: over the week, the flamegraph equals google/pprof's sum of the 14
// profiles, the sum of the seven day-long answers, and the unlimited
// store's answer; so do the series, point for point; the limited answers
// carry the notice of the split.
func TestWeekOnALimitedServer(t *testing.T) {
	limited, open := limitStore(t, day), limitStore(t, 0)
	fillWeek(t, limited, open)
	dl, do := newDSWith(t, limited, `{"minStep":"15s"}`), newDSWith(t, open, `{"minStep":"15s"}`)
	from, to := weekStart, weekStart.Add(7*day)

	// The refusal is Pyroscope's, before the datasource learns the limit.
	_, err := dl.split.Inner().ProfileTypes(context.Background(), source.TimeRange{From: from, To: to})
	require.ErrorContains(t, err, "the query time range exceeds the limit (max_query_length, actual: 168h0m0s, limit: 1d)")

	// Flamegraph.
	week := ok(t, run(t, dl, rangeQ("P", "profile", shopQ("shop"), from, to, time.Hour)), "P")
	require.Equal(t, []string{splitNotice}, noticesOf(week))
	rows := flameRows(t, week[0])
	one, two := plugintest.Pprof(t, plugintest.CPUFile, "cpu"), plugintest.Pprof(t, plugintest.SecondCPUFile, "cpu")
	require.Equal(t, 7*(one.Total+two.Total), rows[0].Value, "root = 7 × google/pprof's totals of the two profiles")
	wantSelf := map[string]int64{}
	for _, r := range []map[string]int64{one.Flat(), two.Flat()} {
		for k, v := range r {
			wantSelf[k] += 7 * v
		}
	}
	require.Equal(t, wantSelf, nonZero(selfByName(rows)), "self per function = 7 × google/pprof's flat")
	openWeek := ok(t, run(t, do, rangeQ("P", "profile", shopQ("shop"), from, to, time.Hour)), "P")
	require.Empty(t, noticesOf(openWeek), "the unlimited store answers the week in one call")
	require.Equal(t, flameRows(t, openWeek[0]), rows, "node for node, the unlimited store's week")
	daySelf := map[string]int64{}
	var dayTotal int64
	for d := range 7 {
		a := from.Add(time.Duration(d) * day)
		frames := ok(t, run(t, dl, rangeQ("D", "profile", shopQ("shop"), a, a.Add(day-time.Millisecond), time.Hour)), "D")
		require.Empty(t, noticesOf(frames), "a day fits")
		dr := flameRows(t, frames[0])
		dayTotal += dr[0].Value
		for k, v := range selfByName(dr) {
			daySelf[k] += v
		}
	}
	require.Equal(t, dayTotal, rows[0].Value, "the sum of the seven day-long answers")
	require.Equal(t, nonZero(daySelf), nonZero(selfByName(rows)))

	// Series, step 1 h.
	ws := ok(t, run(t, dl, rangeQ("M", "metrics", shopQ("shop"), from, to, time.Hour)), "M")
	require.Equal(t, []string{splitNotice}, noticesOf(ws))
	got := points(t, ws)
	require.Equal(t, points(t, ok(t, run(t, do, rangeQ("M", "metrics", shopQ("shop"), from, to, time.Hour)), "M")), got)
	sum := map[string]map[int64]float64{}
	for d := range 7 {
		a := from.Add(time.Duration(d) * day)
		for k, ps := range points(t, ok(t, run(t, dl, rangeQ("D", "metrics", shopQ("shop"), a, a.Add(day), time.Hour)), "D")) {
			if sum[k] == nil {
				sum[k] = map[int64]float64{}
			}
			for ts, v := range ps {
				sum[k][ts] += v
			}
		}
	}
	require.Equal(t, sum, got, "the sum of the seven day-long series")
	var n int
	var total float64
	for _, ps := range got {
		for _, v := range ps {
			n++
			total += v
		}
	}
	require.Equal(t, 14, n, "one point per profile")
	require.Equal(t, float64(7*(one.Total+two.Total)), total)

	// The pprof export of the week: the pieces' profiles merged by google/pprof.
	ex := url.Values{"profileTypeId": {cpuType}, "labelSelector": {`{service_name="shop"}`},
		"start": {strconv.FormatInt(from.UnixMilli(), 10)}, "end": {strconv.FormatInt(to.UnixMilli(), 10)}}
	code, _, body := callResource(t, dl, "GET", "export", ex)
	require.Equal(t, 200, code, "%s", body)
	merged := plugintest.Parse(t, body)
	idx := plugintest.SampleIndex(t, merged, "cpu")
	var cpu int64
	for _, s := range merged.Sample {
		cpu += s.Value[idx]
	}
	require.Equal(t, 7*(one.Total+two.Total), cpu, "the exported week holds google/pprof's 14 totals")
}

// TestSplitAtTheBoundariesAndLongSteps: a profile exactly on a piece's
// boundary is counted once, in the flamegraph and in the series, and a step
// longer than the limit (2 days) gives the unlimited store's points; the
// labels, top table and label values over the week are the unlimited
// store's too, and the histogram counts the same profiles.
func TestSplitAtTheBoundariesAndLongSteps(t *testing.T) {
	limited, open := limitStore(t, day), limitStore(t, 0)
	fillWeek(t, limited, open)
	dl, do := newDSWith(t, limited, `{"minStep":"15s"}`), newDSWith(t, open, `{"minStep":"15s"}`)
	from, to := weekStart, weekStart.Add(7*day)
	both := func(q backend.DataQuery) (data.Frames, data.Frames) {
		return ok(t, run(t, dl, q), q.RefID), ok(t, run(t, do, q), q.RefID)
	}

	l, o := both(rangeQ("E", "profile", shopQ("edge"), from, to, time.Hour))
	require.Equal(t, flameRows(t, o[0]), flameRows(t, l[0]))
	require.Equal(t, plugintest.Pprof(t, plugintest.CPUFile, "cpu").Total+plugintest.Pprof(t, plugintest.SecondCPUFile, "cpu").Total, flameRows(t, l[0])[0].Value, "the boundary profile once")
	for _, step := range []time.Duration{time.Hour, 7 * time.Hour, 2 * day, 3*day + time.Hour} {
		l, o = both(rangeQ("S", "metrics", shopQ("edge"), from, to, step))
		require.Equal(t, points(t, o), points(t, l), "step %s", step)
		require.NotEmpty(t, noticesOf(l), "step %s", step)
		l, o = both(rangeQ("S", "metrics", `{"profileTypeId":"`+cpuType+`","labelSelector":"{}","groupBy":["service_name"]}`, from, to, step))
		require.Equal(t, points(t, o), points(t, l), "step %s", step)
	}
	// Virtual frames: the planner's label values, totals and merges are split too.
	l, o = both(rangeQ("V", "profile", `{"expr":"frames_from_label(`+cpuType+`{service_name=\"shop\"}, \"route\")"}`, from, to, time.Hour))
	require.NotEmpty(t, noticesOf(l))
	require.Equal(t, flameRows(t, o[0]), flameRows(t, l[0]))
	require.True(t, slices.ContainsFunc(flameRows(t, l[0]), func(r flameRow) bool { return r.Virtual && r.Label == "/checkout" }), "a virtual frame per route")
	for _, qt := range []string{QueryTypeTopTable, QueryTypeLabels} {
		js := `{"profileTypeId":"` + cpuType + `","labelSelector":"{service_name=\"shop\"}","groupBy":["route"]}`
		l, o = both(rangeQ("T", qt, js, from, to, time.Hour))
		require.NotEmpty(t, noticesOf(l), qt)
		for _, f := range append(l, o...) {
			f.Meta.Notices = nil
		}
		lj, err := json.Marshal(l)
		require.NoError(t, err)
		oj, err := json.Marshal(o)
		require.NoError(t, err)
		require.JSONEq(t, string(oj), string(lj), qt)
	}
	// The histogram counts every profile of the week once (the pieces bin
	// their values in their own ranges, so only the counts compare).
	counted := func(frames data.Frames) int64 {
		c, idx := frames[0].FieldByName("count")
		require.GreaterOrEqual(t, idx, 0)
		var n int64
		for i := 0; i < c.Len(); i++ {
			n += c.At(i).(int64)
		}
		return n
	}
	l, o = both(rangeQ("H", QueryTypeHistogram, shopQ("shop"), from, to, time.Hour))
	require.NotEmpty(t, noticesOf(l))
	require.Equal(t, int64(14), counted(o))
	require.Equal(t, counted(o), counted(l))
	p := url.Values{"label": {"service_name"}, "start": {strconv.FormatInt(from.UnixMilli(), 10)}, "end": {strconv.FormatInt(to.UnixMilli(), 10)}}
	code, _, body := callResource(t, dl, "GET", "labelValues", p)
	require.Equal(t, 200, code, "%s", body)
	require.JSONEq(t, `["edge","shop"]`, string(body))
}

// TestHealthAndEmptyAnswersOnALimitedServer: "Save & test" is green on a
// server refusing ranges over a day and names the limit; a service with no
// data over the week answers an empty flamegraph and no series, not an
// error; an unknown profile type is still named.
func TestHealthAndEmptyAnswersOnALimitedServer(t *testing.T) {
	limited := limitStore(t, day)
	fillWeek(t, limited)
	d := newDSWith(t, limited, `{"minStep":"15s","serverKind":"pyroscope"}`)
	d.now = func() time.Time { return weekStart.Add(7 * day) }
	h := health(t, d)
	require.Equal(t, backend.HealthStatusOk, h.Status, h.Message)
	require.Equal(t, "Connected to the profile server at "+limited+" (Pyroscope querier API): 2 profile types in the last 24 hours ("+cpuType+", process_cpu:samples:count:cpu:nanoseconds). "+
		"The server refuses ranges over 1d (max_query_length): longer ranges are queried in pieces of ≤ 1d and merged.", h.Message)

	set := newDSWith(t, limited, `{"minStep":"15s","maxQueryLength":"12h"}`)
	set.now = d.now
	require.Contains(t, health(t, set).Message, "Longest query range: 12h (the datasource's maxQueryLength setting)")
	open := newDSWith(t, limitStore(t, 0), `{"minStep":"15s"}`)
	h = health(t, open)
	require.Equal(t, backend.HealthStatusError, h.Status)
	require.Contains(t, h.Message, "holds no profiles from the last 7 days")
	require.Contains(t, h.Message, "The server answers 1w in one call: no query length limit up to that.")

	from, to := weekStart, weekStart.Add(7*day)
	fl := ok(t, run(t, d, rangeQ("N", "profile", shopQ("no-such-service"), from, to, time.Hour)), "N")
	require.Equal(t, int64(0), flameRows(t, fl[0])[0].Value, "an empty flamegraph")
	ser := ok(t, run(t, d, rangeQ("N", "metrics", shopQ("no-such-service"), from, to, time.Hour)), "N")
	require.Empty(t, points(t, ser), "no series")
	r := run(t, d, rangeQ("U", "profile", `{"profileTypeId":"nope:cpu:nanoseconds:cpu:nanoseconds"}`, from, to, time.Hour))
	require.ErrorContains(t, r.Responses["U"].Error, `unknown profile type "nope:cpu:nanoseconds:cpu:nanoseconds": the profile server has `+cpuType)
}

// TestAgainstPyroscopeRecordings runs the datasource against the replay of
// Pyroscope v2.2.1's own answers with its default limits (recordings
// 64–73), at the recording's time: health is green, asks only what
// Pyroscope answered (the last 24 hours), and learns the limit from the
// recorded refusal of 7 days; a service with no data answers an empty
// flamegraph and no series, and the metrics query's check of its profile
// type (the day up to the query's end, recording 65) finds it. Every call
// matched a recording.
func TestAgainstPyroscopeRecordings(t *testing.T) {
	srv := pyroscopereplay.NewServerOf(t, fixtures.PyroscopeLimits())
	var params struct {
		RecordedAtMs int64 `json:"recordedAtMs"`
	}
	require.NoError(t, json.Unmarshal(fixtures.Read(t, "pyroscope/limits/limits-query-params.json"), &params))
	now := time.UnixMilli(params.RecordedAtMs).UTC()
	d := newDSWith(t, srv.URL, `{"minStep":"15s","serverKind":"pyroscope"}`)
	d.now = func() time.Time { return now }

	h := health(t, d)
	require.Equal(t, backend.HealthStatusOk, h.Status, h.Message)
	assert.Contains(t, h.Message, "(Pyroscope querier API): 2 profile types in the last 24 hours (process_cpu:cpu:nanoseconds:cpu:nanoseconds, process_cpu:samples:count:cpu:nanoseconds)")
	assert.Contains(t, h.Message, "The server refuses ranges over 1d (max_query_length)")

	from := now.Add(-time.Hour)
	// The datasource's flamegraph query sends maxNodes, which recording 72
	// does not: its call goes through the datasource's source as recorded.
	tree, err := d.src.MergeStacks(context.Background(), source.StacksRequest{Selection: source.Selection{
		ProfileTypeID: cpuType, LabelSelector: `{service_name="no-such-service"}`, Range: source.TimeRange{From: from, To: now}}})
	require.NoError(t, err)
	require.Equal(t, int64(0), tree.Total(), "recording 72: an empty flamegraph")
	require.Equal(t, 1, tree.Len(), "the root alone")
	ser := ok(t, run(t, d, backend.DataQuery{RefID: "N", QueryType: "metrics", JSON: json.RawMessage(shopQ("no-such-service")),
		TimeRange: backend.TimeRange{From: from, To: now}, Interval: time.Minute, MaxDataPoints: 60}), "N")
	require.Empty(t, points(t, ser), "recording 73: no series")
	require.Empty(t, srv.Unmatched(), "every call the datasource made is one Pyroscope answered")
}
