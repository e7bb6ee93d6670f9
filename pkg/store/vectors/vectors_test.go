// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package vectors_test

import (
	"bytes"
	"cmp"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"testing"
	"time"

	"connectrpc.com/connect"
	querierv1 "github.com/grafana/pyroscope/api/gen/proto/go/querier/v1"
	"github.com/grafana/pyroscope/api/gen/proto/go/querier/v1/querierv1connect"
	"github.com/stretchr/testify/require"

	noveltydata "github.com/emberscope/emberscope/internal/fixtures/noveltydata"
	"github.com/emberscope/emberscope/pkg/api/noveltyv1"
	"github.com/emberscope/emberscope/pkg/profile/flame/flametest"
	"github.com/emberscope/emberscope/pkg/profile/model"
	"github.com/emberscope/emberscope/pkg/profile/novelty"
	"github.com/emberscope/emberscope/pkg/store"
	"github.com/emberscope/emberscope/pkg/store/storage"
	"github.com/emberscope/emberscope/pkg/store/vectors"
)

const cpu = "process_cpu:cpu:nanoseconds:cpu:nanoseconds"

var base = time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)

type server struct {
	t       *testing.T
	st      *store.Store
	srv     *httptest.Server
	url     string
	vectors *noveltyv1.Client
	querier querierv1connect.QuerierServiceClient
}

func newServer(t *testing.T, opts vectors.Options) *server {
	t.Helper()
	st, err := store.Open(store.Options{Dir: t.TempDir(), Vectors: opts, NoIngestWindow: true, NoRetention: true})
	require.NoError(t, err)
	return serve(t, st)
}

// serve puts st behind an HTTP server, closed when the test ends.
func serve(t *testing.T, st *store.Store) *server {
	srv := httptest.NewServer(st.Handler())
	s := &server{t: t, st: st, srv: srv, url: srv.URL, vectors: noveltyv1.NewClient(srv.Client(), srv.URL),
		querier: querierv1connect.NewQuerierServiceClient(srv.Client(), srv.URL)}
	t.Cleanup(s.close)
	return s
}

func (s *server) close() {
	if s.srv != nil {
		s.srv.Close()
		require.NoError(s.t, s.st.Close())
		s.srv = nil
	}
}

func (s *server) ingest(name string, pprof []byte) {
	s.t.Helper()
	resp, err := http.Post(s.url+"/ingest?format=pprof&name="+url.QueryEscape(name), "application/octet-stream", bytes.NewReader(pprof))
	require.NoError(s.t, err)
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	require.Equal(s.t, http.StatusOK, resp.StatusCode, string(body))
}

func (s *server) selectVectors(selector string) *noveltyv1.Response {
	s.t.Helper()
	res, err := s.vectors.SelectVectors(context.Background(), &noveltyv1.Request{ProfileTypeID: cpu, LabelSelector: selector, Start: base.UnixMilli(), End: base.Add(time.Hour).UnixMilli()})
	require.NoError(s.t, err)
	return res
}

// points decodes a response into one point per push.
func points(t *testing.T, res *noveltyv1.Response) ([]novelty.Point, int, int) {
	t.Helper()
	var ps []novelty.Profile
	bytes, sampled := 0, 0
	for _, se := range res.Series {
		for _, p := range se.Profiles {
			v, err := novelty.Decode(p.Vector, func(r uint64) (string, error) { return res.Names[r], nil })
			require.NoError(t, err)
			ps = append(ps, novelty.Profile{Time: time.Unix(0, p.Time), Total: p.Total, Vector: v})
			bytes += len(p.Vector)
			if p.Sampled {
				sampled++
			}
		}
	}
	pts, err := novelty.ProfilePoints(ps)
	require.NoError(t, err)
	return pts, bytes / max(len(ps), 1), sampled
}

func TestStoreKeepsTheVectorOfEveryProfile(t *testing.T) {
	for _, by := range []novelty.By{novelty.ByFunction, novelty.ByStack} {
		t.Run(by.String(), func(t *testing.T) {
			s := newServer(t, vectors.Options{Params: novelty.Params{By: by}})
			entries := noveltydata.Stable(t, "rideshare", 4)
			for i, e := range entries {
				s.ingest(`rideshare{}`, noveltydata.At(t, e, base.Add(time.Duration(i)*time.Minute)))
			}
			res := s.selectVectors(`{service_name="rideshare"}`)
			require.Greater(t, len(res.Series), 1, "sample labels split each push into several series, each with its vectors")
			pts, perProfile, sampled := points(t, res)
			require.Len(t, pts, 4, "one point per push")
			require.Zero(t, sampled, "sampling is off by default")
			require.LessOrEqual(t, perProfile, 2048, "a vector is at most 2 KB per stored profile")
			t.Logf("by %s: %d series, %d bytes of vector per stored profile on average", by, len(res.Series), perProfile)
			for i, e := range entries {
				// The oracle: the vector of the whole pprof's tree, built by
				// google/pprof's parser and Pyroscope's frame and name rules
				// (generic shapes removed).
				pp := noveltydata.Parse(t, e)
				for _, f := range pp.Function {
					f.Name = model.FunctionName(f.Name)
				}
				tr, err := flametest.FromProfile(pp, 1)
				require.NoError(t, err)
				want, err := novelty.FromTree(tr, novelty.Params{By: by})
				require.NoError(t, err)
				require.InDelta(t, 1, novelty.Cosine(&pts[i].Vector, &want), 0.01, "push %d: the store's vectors merged are the profile's", i)
				if by == novelty.ByFunction {
					// The inclusive groups too: each of the profile's 10
					// largest, within a point (a push's label-split parts
					// keep their own 32).
					require.NotEmpty(t, pts[i].Vector.Groups, "push %d: groups", i)
					got := map[string]float64{}
					for _, g := range pts[i].Vector.Groups {
						got[g.Key] = float64(g.Weight)
					}
					gs := slices.Clone(want.Groups)
					slices.SortFunc(gs, func(a, b novelty.Entry) int { return cmp.Compare(b.Weight, a.Weight) })
					for _, g := range gs[:10] {
						require.InDelta(t, float64(g.Weight), got[g.Key], 0.01, "push %d: inclusive share of %s", i, g.Key)
					}
				}
				require.True(t, pts[i].Time.Equal(base.Add(time.Duration(i)*time.Minute)))
			}
		})
	}
}

func TestSelectVectorsErrors(t *testing.T) {
	s := newServer(t, vectors.Options{})
	for _, r := range []*noveltyv1.Request{
		{ProfileTypeID: "cpu", Start: 1, End: 2},
		{ProfileTypeID: cpu, LabelSelector: `{a=`, Start: 1, End: 2},
		{ProfileTypeID: cpu, Start: 5, End: 2},
	} {
		_, err := s.vectors.SelectVectors(context.Background(), r)
		require.Equal(t, connect.CodeInvalidArgument, connect.CodeOf(err), "%+v: %v", r, err)
	}
	res, err := s.vectors.SelectVectors(context.Background(), &noveltyv1.Request{ProfileTypeID: cpu, Start: 1, End: 2})
	require.NoError(t, err)
	require.Empty(t, res.Series)
}

// flameTotal is the total and the __sampled__ frame's self of the merged
// flamegraph of the whole range.
func (s *server) flameTotal(selector string) (int64, int64) {
	s.t.Helper()
	resp, err := s.querier.SelectMergeStacktraces(context.Background(), connect.NewRequest(&querierv1.SelectMergeStacktracesRequest{
		ProfileTypeID: cpu, LabelSelector: selector, Start: base.UnixMilli(), End: base.Add(time.Hour).UnixMilli(),
	}))
	require.NoError(s.t, err)
	fg := resp.Msg.Flamegraph
	var sampled int64
	for _, lv := range fg.Levels {
		for i := 0; i+3 < len(lv.Values); i += 4 {
			if fg.Names[lv.Values[i+3]] == storage.SampledFrame {
				sampled += lv.Values[i+2]
			}
		}
	}
	return fg.Total, sampled
}

// flameSelf is the self of each function in the merged flamegraph.
func (s *server) flameSelf(selector string) map[string]int64 {
	s.t.Helper()
	resp, err := s.querier.SelectMergeStacktraces(context.Background(), connect.NewRequest(&querierv1.SelectMergeStacktracesRequest{
		ProfileTypeID: cpu, LabelSelector: selector, Start: base.UnixMilli(), End: base.Add(time.Hour).UnixMilli(),
	}))
	require.NoError(s.t, err)
	fg := resp.Msg.Flamegraph
	out := map[string]int64{}
	for _, lv := range fg.Levels {
		for i := 0; i+3 < len(lv.Values); i += 4 {
			out[fg.Names[lv.Values[i+3]]] += lv.Values[i+2]
		}
	}
	return out
}

// pprofTotal is the oracle: google/pprof's sum of a profile's cpu values.
func pprofTotal(t *testing.T, e noveltydata.Entry) int64 {
	var sum int64
	for _, s := range noveltydata.Parse(t, e).Sample {
		sum += s.Value[1]
	}
	return sum
}

func TestSamplingKeepsTotalsVectorsAndNovelProfiles(t *testing.T) {
	on := vectors.Options{Sampling: vectors.Sampling{Enabled: true}}
	s := newServer(t, on)
	off := newServer(t, vectors.Options{})
	stable := noveltydata.Stable(t, "logindex", 12)
	novel := noveltydata.Changed(t, "rideshare-in-logindex")
	var want int64
	for i, e := range stable {
		b := noveltydata.At(t, e, base.Add(time.Duration(i)*20*time.Second))
		s.ingest(`logindex{}`, b)
		off.ingest(`logindex{}`, b)
		want += pprofTotal(t, e)
	}
	at := base.Add(time.Duration(len(stable)) * 20 * time.Second)
	s.ingest(`logindex{}`, noveltydata.At(t, novel, at))
	want += pprofTotal(t, novel)

	total, sampledSelf := s.flameTotal(`{service_name="logindex"}`)
	require.Equal(t, want, total, "the flamegraph total of a sampled range is exact")
	require.Positive(t, sampledSelf, "sampled-out profiles' value sits on the __sampled__ frame")
	res := s.selectVectors(`{service_name="logindex"}`)
	pts, _, sampled := points(t, res)
	require.Len(t, pts, len(stable)+1, "every profile keeps its vector")
	require.Positive(t, sampled)
	var first, last bool
	for _, se := range res.Series {
		for _, p := range se.Profiles {
			if p.Time == base.UnixNano() {
				first = !p.Sampled
			}
			if p.Time == at.UnixNano() {
				last = !p.Sampled
			}
		}
	}
	require.True(t, first, "the first profile of a pattern in its window is kept whole")
	require.True(t, last, "a novel profile is kept whole")
	t.Logf("sampling: %d of %d logindex profiles kept only totals; __sampled__ holds %.1f%% of the range's total",
		sampled, len(pts), 100*float64(sampledSelf)/float64(total))
}
