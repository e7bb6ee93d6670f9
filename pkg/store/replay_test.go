// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package store_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"testing"

	"connectrpc.com/connect"
	"github.com/google/pprof/profile"
	"github.com/google/uuid"
	googlev1 "github.com/grafana/pyroscope/api/gen/proto/go/google/v1"
	pushv1 "github.com/grafana/pyroscope/api/gen/proto/go/push/v1"
	"github.com/grafana/pyroscope/api/gen/proto/go/push/v1/pushv1connect"
	querierv1 "github.com/grafana/pyroscope/api/gen/proto/go/querier/v1"
	"github.com/grafana/pyroscope/api/gen/proto/go/querier/v1/querierv1connect"
	typesv1 "github.com/grafana/pyroscope/api/gen/proto/go/types/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/internal/fixtures"
	"github.com/emberscope/emberscope/internal/pyroscopereplay"
	"github.com/emberscope/emberscope/pkg/store"
)

// replayStoreOptions are the options of the store the recordings are
// replayed against: the recorded profiles carry fixed 2026-12-01 dates, so
// nothing may refuse or expire them for their age.
func replayStoreOptions(dir string) store.Options {
	return store.Options{Dir: dir, NoIngestWindow: true, NoRetention: true}
}

// newReplayStore starts the store the recordings are replayed against.
func newReplayStore(t *testing.T) *httptest.Server {
	t.Helper()
	st, err := store.Open(replayStoreOptions(t.TempDir()))
	require.NoError(t, err)
	srv := httptest.NewServer(st.Handler())
	t.Cleanup(func() {
		srv.Close()
		require.NoError(t, st.Close())
	})
	return srv
}

// TestReplayPyroscopeRecordings sends every request recorded with a real
// Pyroscope v2.2.1, in the recorded order and the recorded form (the same
// pprof files to /ingest and push.v1, the same connect JSON bodies), to the
// store, and compares each answer with Pyroscope's: status, error code,
// flamegraphs node for node, trees byte for byte, series points, label sets.
// Only error message texts may differ (README, "Differences from Pyroscope").
func TestReplayPyroscopeRecordings(t *testing.T) {
	exs, err := pyroscopereplay.Load(fixtures.Pyroscope())
	require.NoError(t, err)
	require.Len(t, exs, 63, "every recorded exchange is replayed")
	srv := newReplayStore(t)
	ids := profileIDs{}
	for _, ex := range exs {
		t.Run(ex.Name, func(t *testing.T) {
			ex.Body = ids.rewrite(ex.Body)
			status, body := send(t, srv, &ex)
			require.Equal(t, ex.Status, status, "HTTP status; answer: %s", body)
			compareAnswer(t, &ex, body, ids)
		})
	}
}

// profileIDs maps the profile ids Pyroscope gave (random UUIDs of its own)
// to the ones the store gave the same profiles, learnt from the exemplars
// of the answers compared so far; a request naming a recorded id (60) is
// sent with the store's.
type profileIDs map[string]string

func (ids profileIDs) rewrite(body []byte) []byte {
	for recorded, ours := range ids {
		body = bytes.ReplaceAll(body, []byte(recorded), []byte(ours))
	}
	return body
}

// exemplars lines up the exemplars of two answers: the same count per
// point or slot, each recorded profile id always the same one of ours (and
// a UUID). It then writes the recorded id into ours and sorts both label
// lists (Pyroscope lists an exemplar's labels in its storage's order).
func (ids profileIDs) exemplars(t *testing.T, want, have [][]*typesv1.Exemplar) {
	t.Helper()
	require.Equal(t, len(want), len(have), "points with exemplars")
	for i := range want {
		require.Equal(t, len(want[i]), len(have[i]), "exemplars of point %d", i)
		for j, w := range want[i] {
			h := have[i][j]
			if w.SpanId != "" && h.SpanId != w.SpanId {
				spanExemplarOracle(t, h)
				require.Equal(t, withoutLabel(w.Labels, "span_name"), withoutLabel(h.Labels, "span_name"), "exemplar labels")
				h.SpanId, h.TraceId, h.Labels = w.SpanId, w.TraceId, w.Labels
			}
			if w.ProfileId != "" {
				_, err := uuid.Parse(h.ProfileId)
				require.NoError(t, err, "exemplar profile id %q", h.ProfileId)
				if ours, ok := ids[w.ProfileId]; ok {
					require.Equal(t, ours, h.ProfileId, "the profile Pyroscope calls %s", w.ProfileId)
				} else {
					for rec, o := range ids {
						require.NotEqual(t, o, h.ProfileId, "our id for %s and %s", rec, w.ProfileId)
					}
					ids[w.ProfileId] = h.ProfileId
				}
				h.ProfileId = w.ProfileId
			}
			for _, e := range []*typesv1.Exemplar{w, h} {
				sort.Slice(e.Labels, func(a, b int) bool { return e.Labels[a].Name < e.Labels[b].Name })
			}
		}
	}
}

func send(t *testing.T, srv *httptest.Server, ex *pyroscopereplay.Exchange) (int, []byte) {
	t.Helper()
	u := srv.URL + ex.Path
	if ex.RawQuery != "" {
		u += "?" + ex.RawQuery
	}
	req, err := http.NewRequest(ex.Method, u, bytes.NewReader(ex.Body))
	require.NoError(t, err)
	if ex.ContentType != "" {
		req.Header.Set("Content-Type", ex.ContentType)
	} else if ex.RPC() != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := srv.Client().Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, body
}

// compareAnswer compares the store's answer body with the recorded one.
func compareAnswer(t *testing.T, ex *pyroscopereplay.Exchange, got []byte, ids profileIDs) {
	t.Helper()
	if ex.Status != http.StatusOK {
		want, err := ex.Error()
		require.NoError(t, err)
		var e pyroscopereplay.ErrorBody
		require.NoError(t, json.Unmarshal(got, &e), "error answer is connect JSON: %s", got)
		assert.Equal(t, want.Code, e.Code, "error code (message %q, Pyroscope's %q)", e.Message, want.Message)
		assert.NotEmpty(t, e.Message)
		t.Logf("message: %q; Pyroscope's: %q", e.Message, want.Message)
		return
	}
	rpc := ex.RPC()
	if rpc == "" {
		// /ingest answers 200 with an empty body.
		assert.Equal(t, strings.TrimSpace(string(ex.Response)), strings.TrimSpace(string(got)))
		return
	}
	want, err := pyroscopereplay.Decode(rpc, ex.Response)
	require.NoError(t, err)
	have, err := pyroscopereplay.Decode(rpc, got)
	require.NoError(t, err, "answer: %s", got)
	switch w := want.(type) {
	case *querierv1.SelectMergeStacktracesResponse:
		h := have.(*querierv1.SelectMergeStacktracesResponse)
		if w.Pprof != nil {
			require.NotNil(t, h.Pprof, "pprof answer: %s", got)
			wl, hl := pyroscopereplay.ProfileLines(w.Pprof.Profile), pyroscopereplay.ProfileLines(h.Pprof.Profile)
			if containsOther(wl) {
				compareCutProfile(t, wl, hl)
				return
			}
			require.Equal(t, wl, hl, "pprof")
			return
		}
		if w.Tree != nil {
			wn, err := pyroscopereplay.TreeNodes(w.Tree)
			require.NoError(t, err)
			hn, err := pyroscopereplay.TreeNodes(h.Tree)
			require.NoError(t, err, "tree %s", base64.StdEncoding.EncodeToString(h.Tree))
			require.Equal(t, wn, hn, "tree nodes")
			require.Equal(t, w.Tree, h.Tree, "tree bytes")
			return
		}
		wn, hn := pyroscopereplay.FlameGraphNodes(w.Flamegraph), pyroscopereplay.FlameGraphNodes(h.Flamegraph)
		require.Equal(t, wn, hn, "flamegraph nodes")
	case *querierv1.DiffResponse:
		h := have.(*querierv1.DiffResponse)
		require.Equal(t, pyroscopereplay.DiffNodes(w.Flamegraph), pyroscopereplay.DiffNodes(h.Flamegraph), "diff nodes")
	case *googlev1.Profile:
		require.Equal(t, pyroscopereplay.ProfileLines(w), pyroscopereplay.ProfileLines(have.(*googlev1.Profile)), "merged profile")
		return
	case *querierv1.SelectSeriesResponse:
		h := have.(*querierv1.SelectSeriesResponse)
		require.Equal(t, len(w.Series), len(h.Series), "series")
		var we, he [][]*typesv1.Exemplar
		for i := range w.Series {
			require.Equal(t, len(w.Series[i].Points), len(h.Series[i].Points), "points")
			for j := range w.Series[i].Points {
				we, he = append(we, w.Series[i].Points[j].Exemplars), append(he, h.Series[i].Points[j].Exemplars)
			}
		}
		ids.exemplars(t, we, he)
	case *querierv1.SelectHeatmapResponse:
		h := have.(*querierv1.SelectHeatmapResponse)
		require.Equal(t, len(w.Series), len(h.Series), "series")
		var we, he [][]*typesv1.Exemplar
		for i := range w.Series {
			require.Equal(t, len(w.Series[i].Slots), len(h.Series[i].Slots), "slots")
			for j := range w.Series[i].Slots {
				we, he = append(we, w.Series[i].Slots[j].Exemplars), append(he, h.Series[i].Slots[j].Exemplars)
			}
		}
		ids.exemplars(t, we, he)
	}
	require.Equal(t, pyroscopereplay.Canonical(want), pyroscopereplay.Canonical(have))
}

// TestSingleHeapProfileAllocSpace ingests the recorded heap profile alone:
// its alloc_space is the pprof's own (google/pprof's total, 245,095,928
// bytes), on /ingest as on push.v1, as Pyroscope v2 stores it.
func TestSingleHeapProfileAllocSpace(t *testing.T) {
	raw := fixtures.Read(t, "pyroscope/pushed-profiles/bench-regexp.mem.redated.pb.gz")
	p, err := profile.ParseData(raw)
	require.NoError(t, err)
	var want int64
	for _, s := range p.Sample {
		want += s.Value[1] // alloc_space
	}
	require.Equal(t, "alloc_space", p.SampleType[1].Type)
	require.Equal(t, int64(245_095_928), want)

	srv := newReplayStore(t) // the profile has its recorded 2026-12-01 date
	resp, err := srv.Client().Post(srv.URL+"/ingest?"+url.Values{"name": {"heap-once"}, "format": {"pprof"}}.Encode(), "application/octet-stream", bytes.NewReader(raw))
	require.NoError(t, err)
	require.NoError(t, resp.Body.Close())
	require.Equal(t, http.StatusOK, resp.StatusCode)
	pusher := pushv1connect.NewPusherServiceClient(srv.Client(), srv.URL)
	querier := querierv1connect.NewQuerierServiceClient(srv.Client(), srv.URL)
	_, err = pusher.Push(context.Background(), connect.NewRequest(&pushv1.PushRequest{Series: []*pushv1.RawProfileSeries{{
		Labels:  []*typesv1.LabelPair{{Name: "__name__", Value: "memory"}, {Name: "service_name", Value: "heap-pushed"}},
		Samples: []*pushv1.RawSample{{RawProfile: raw}},
	}}}))
	require.NoError(t, err)
	at := p.TimeNanos / 1e6
	for _, svc := range []string{"heap-once", "heap-pushed"} {
		resp, err := querier.SelectMergeStacktraces(context.Background(), connect.NewRequest(&querierv1.SelectMergeStacktracesRequest{
			ProfileTypeID: "memory:alloc_space:bytes:space:bytes", LabelSelector: `{service_name="` + svc + `"}`, Start: at, End: at,
		}))
		require.NoError(t, err)
		assert.Equal(t, want, resp.Msg.Flamegraph.Total, svc)
	}
}

// spanExemplarOracle checks, with google/pprof on the recorded span-labelled
// profiles, that a span exemplar names a real span: the profile dated at the
// exemplar's time has samples with that span_id, summing to the exemplar's
// value, with its trace_id and span_name. Among spans of equal value in one
// heatmap cell Pyroscope picks one by its storage's order, the store the
// first it reads; the replay accepts any such span (README, differences).
func spanExemplarOracle(t *testing.T, e *typesv1.Exemplar) {
	t.Helper()
	for _, f := range spanProfiles {
		p, err := profile.ParseData(fixtures.Read(t, f))
		require.NoError(t, err)
		if p.TimeNanos/1e6 != e.Timestamp {
			continue
		}
		var sum int64
		for _, s := range p.Sample {
			if len(s.Label["span_id"]) == 0 || s.Label["span_id"][0] != e.SpanId {
				continue
			}
			sum += s.Value[1]
			require.Equal(t, e.TraceId, s.Label["trace_id"][0], "trace of span %s", e.SpanId)
			var name string
			for _, l := range e.Labels {
				if l.Name == "span_name" {
					name = l.Value
				}
			}
			require.Equal(t, name, s.Label["span_name"][0], "span_name of span %s", e.SpanId)
		}
		require.Equal(t, e.Value, sum, "pprof's cpu of span %s in %s", e.SpanId, f)
		return
	}
	t.Fatalf("no recorded profile at the exemplar's time %d", e.Timestamp)
}

func withoutLabel(ls []*typesv1.LabelPair, name string) map[string]string {
	out := make(map[string]string, len(ls))
	for _, l := range ls {
		if l.Name != name {
			out[l.Name] = l.Value
		}
	}
	return out
}

// otherFrame is the frame Pyroscope puts where it cut a pprof answer's
// stacks short to honour maxNodes (recording 62): function "other", no file.
const otherFrame = "other :0 (from 0)"

func containsOther(lines []string) bool {
	for _, l := range lines {
		if strings.Contains(l, "\t"+otherFrame+";") {
			return true
		}
	}
	return false
}

// compareCutProfile compares our whole pprof answer (ProfileLines) with
// Pyroscope's, which cut stacks short under maxNodes (recording 62; which
// nodes it keeps follows its storage's node order, README, differences):
// the mappings, types, period and time are equal; the totals are equal;
// every stack Pyroscope kept is ours with at least its value; and each
// cut stack's kept part is a path of ours holding at least what Pyroscope
// put under its "other" (summed per path).
func compareCutProfile(t *testing.T, want, have []string) {
	t.Helper()
	head := func(ls []string) []string {
		var out []string
		for _, l := range ls {
			if !strings.Contains(l, "\t") {
				out = append(out, l)
			}
		}
		return out
	}
	require.Equal(t, head(want), head(have), "pprof header")
	stacks := func(ls []string) map[string]int64 {
		out := map[string]int64{}
		for _, l := range ls {
			if v, st, ok := strings.Cut(l, "\t"); ok {
				n, err := strconv.ParseInt(v, 10, 64)
				require.NoError(t, err)
				out[st] += n
			}
		}
		return out
	}
	ws, hs := stacks(want), stacks(have)
	var wt, ht int64
	for _, v := range ws {
		wt += v
	}
	for _, v := range hs {
		ht += v
	}
	require.Equal(t, wt, ht, "pprof total")
	// cum[path] sums our stacks by every root-side path (leaf-first text suffix).
	cum := map[string]int64{}
	for st, v := range hs {
		fs := strings.Split(st, ";")
		for i := range fs {
			cum[strings.Join(fs[i:], ";")] += v
		}
	}
	under := map[string]int64{}
	for st, v := range ws {
		if st == otherFrame {
			continue // cut at the root: the equal totals cover it
		}
		if rest, ok := strings.CutPrefix(st, otherFrame+";"); ok {
			under[rest] += v
			continue
		}
		// At least: Pyroscope's nodes are its locations by address, so
		// samples of one stack of lines can sit partly under its "other".
		require.GreaterOrEqual(t, hs[st], v, "stack kept by Pyroscope: %s", st)
	}
	for path, v := range under {
		require.GreaterOrEqual(t, cum[path], v, "our value under %s", path)
	}
}
