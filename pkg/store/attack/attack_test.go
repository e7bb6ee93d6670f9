// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package attack_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"connectrpc.com/connect"
	"github.com/google/pprof/profile"
	pushv1 "github.com/grafana/pyroscope/api/gen/proto/go/push/v1"
	querierv1 "github.com/grafana/pyroscope/api/gen/proto/go/querier/v1"
	typesv1 "github.com/grafana/pyroscope/api/gen/proto/go/types/v1"
	"github.com/stretchr/testify/require"
)

// hostileGzip is about 1 MB of gzip that inflates to about 1 GB of JSON
// whitespace: a gzip stream of many members (which decompress one after
// the other), each one mebibyte of spaces compressed once.
func hostileGzip(t *testing.T) []byte {
	member := func(b []byte) []byte {
		var buf bytes.Buffer
		zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		require.NoError(t, err)
		_, _ = zw.Write(b)
		require.NoError(t, zw.Close())
		return buf.Bytes()
	}
	spaces := member(bytes.Repeat([]byte(" "), 1<<20))
	out := member([]byte("{"))
	for i := 0; i < 1000; i++ {
		out = append(out, spaces...)
	}
	return append(out, member([]byte("}"))...)
}

// TestHostileBodyMemory sends a 1 MB gzip body that inflates to 1 GB to
// every endpoint of a fresh store: each is refused with 413, the peak RSS
// grows by less than 512 MB, and every query still answers.
func TestHostileBodyMemory(t *testing.T) {
	p := start(t, t.TempDir())
	now := time.Now()
	require.NoError(t, p.push(context.Background(), encode(t, cpuProfile(now, [][]string{{"main", "work"}}, []int64{7})), "service_name", "before"))
	p.everyQueryAnswers(t)
	body := hostileGzip(t)
	t.Logf("hostile body: %d bytes of gzip, 1 GB inflated", len(body))
	before := p.peakRSS()
	for _, path := range []string{"/push.v1.PusherService/Push", "/querier.v1.QuerierService/SelectMergeStacktraces", "/querier.v1.QuerierService/ProfileTypes"} {
		status, msg := p.post(path, http.Header{"Content-Type": {"application/json"}, "Content-Encoding": {"gzip"}}, body)
		require.Equal(t, http.StatusRequestEntityTooLarge, status, "%s: %s", path, msg)
		require.Contains(t, msg, "max-decompressed-bytes", path)
		require.Contains(t, msg, "536870912", path)
	}
	status, msg := p.post("/ingest?name=hostile&format=folded", http.Header{"Content-Encoding": {"gzip"}}, body)
	require.Equal(t, http.StatusRequestEntityTooLarge, status, msg)
	require.Contains(t, msg, "max-decompressed-bytes")
	grown := p.peakRSS() - before
	t.Logf("peak RSS (VmHWM) %d MB before, grew by %d MB", before>>20, grown>>20)
	require.Less(t, grown, int64(512<<20))
	p.everyQueryAnswers(t)
	require.Equal(t, int64(7), p.total(`{service_name="before"}`))
	require.Zero(t, p.total(`{service_name="hostile"}`))
}

// refused checks a push is refused with code and a message holding want.
func refused(t *testing.T, err error, code connect.Code, want ...string) {
	t.Helper()
	require.Error(t, err)
	var ce *connect.Error
	require.True(t, errors.As(err, &ce), "%v", err)
	require.Equal(t, code, ce.Code(), ce.Message())
	for _, w := range want {
		require.Contains(t, ce.Message(), w)
	}
}

// TestHostileProfiles pushes profiles that break each limit or carry
// invalid UTF-8: each is refused with a message naming what and the limit,
// nothing of it is stored, what was stored before is unchanged, and every
// query still answers.
func TestHostileProfiles(t *testing.T) {
	p := start(t, t.TempDir())
	ctx := context.Background()
	now := time.Now()
	good := encode(t, cpuProfile(now, [][]string{{"main", "work"}}, []int64{5}))
	require.NoError(t, p.push(ctx, good, "service_name", "keep"))
	check := func(t *testing.T) {
		t.Helper()
		require.Equal(t, int64(5), p.total(`{}`), "only the good profile is stored")
	}
	one := func(mod func(*profile.Profile)) []byte {
		pr := cpuProfile(now, [][]string{{"main", "bad"}}, []int64{3})
		mod(pr)
		return encode(t, pr)
	}
	cases := []struct {
		name   string
		raw    []byte
		labels []string
		want   []string
	}{
		{"sample type not UTF-8", one(func(pr *profile.Profile) { pr.SampleType[0].Type = "cpu\xff" }), nil, []string{"sample type 0", "not valid UTF-8"}},
		{"function name not UTF-8", one(func(pr *profile.Profile) { pr.Function[1].Name = "bad\xc3\x28" }), nil, []string{"function 2", "not valid UTF-8"}},
		{"sample label not UTF-8", one(func(pr *profile.Profile) { pr.Sample[0].Label = map[string][]string{"k": {"v\xff"}} }), nil, []string{"sample 0 label", "not valid UTF-8"}},
		{"too many samples", func() []byte {
			stacks := make([][]string, 16001)
			values := make([]int64, len(stacks))
			for i := range stacks {
				stacks[i], values[i] = []string{"main", "f" + strconv.Itoa(i)}, 1
			}
			return encode(t, cpuProfile(now, stacks, values))
		}(), nil, []string{"samples 16001 exceeds the limit 16000 (-max-samples)"}},
		{"too many labels on a sample", one(func(pr *profile.Profile) {
			pr.Sample[0].Label = map[string][]string{}
			for i := 0; i < 101; i++ {
				pr.Sample[0].Label["l"+strconv.Itoa(i)] = []string{"v"}
			}
		}), nil, []string{"labels 101 exceeds the limit 100 (-max-labels-per-sample)"}},
		{"label value too long", good, []string{"service_name", "x", "big", strings.Repeat("v", 2049)}, []string{"value of label \"big\"", "2049 bytes exceeds the limit 2048 bytes (-max-label-value-length)"}},
		{"label name too long", good, []string{"service_name", "x", strings.Repeat("n", 1025), "v"}, []string{"1025 bytes exceeds the limit 1024 bytes (-max-label-name-length)"}},
		{"too many label names", good, func() []string {
			ls := []string{"service_name", "x"}
			for i := 0; i < 30; i++ {
				ls = append(ls, "l"+strconv.Itoa(i), "v")
			}
			return ls
		}(), []string{"label names 31 exceeds the limit 30 (-max-label-names-per-series)"}},
		{"time far in the future", one(func(pr *profile.Profile) { pr.TimeNanos = now.Add(time.Hour).UnixNano() }), nil, []string{"in the future", "-reject-newer-than"}},
		{"time too old", one(func(pr *profile.Profile) { pr.TimeNanos = now.Add(-2 * time.Hour).UnixNano() }), nil, []string{"older than the maximum age 1h0m0s", "-reject-older-than"}},
		{"time negative", one(func(pr *profile.Profile) { pr.TimeNanos = -5 }), nil, []string{"out of range"}},
		{"time 2^63-1", one(func(pr *profile.Profile) { pr.TimeNanos = math.MaxInt64 }), nil, []string{"out of range"}},
		{"time -2^63", one(func(pr *profile.Profile) { pr.TimeNanos = math.MinInt64 }), nil, []string{"out of range"}},
		{"values overflow int64", func() []byte {
			return encode(t, cpuProfile(now, [][]string{{"a"}, {"b"}}, []int64{math.MaxInt64 - 1, math.MaxInt64 - 1}))
		}(), nil, []string{"beyond the int64 range"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			labels := c.labels
			if labels == nil {
				labels = []string{"service_name", "hostile"}
			}
			err := p.push(ctx, c.raw, labels...)
			refused(t, err, connect.CodeInvalidArgument, c.want...)
			check(t)
		})
	}
	// A push label that is not UTF-8 cannot even be encoded by a client
	// library: send the bytes by hand.
	t.Run("push label not UTF-8", func(t *testing.T) {
		msg, err := (&pushv1.PushRequest{Series: []*pushv1.RawProfileSeries{{
			Labels:  []*typesv1.LabelPair{{Name: "service_name", Value: "x"}, {Name: "env", Value: "prodZ"}},
			Samples: []*pushv1.RawSample{{RawProfile: good}},
		}}}).MarshalVT()
		require.NoError(t, err)
		msg = bytes.Replace(msg, []byte("prodZ"), []byte("prod\xfe"), 1)
		status, text := p.post("/push.v1.PusherService/Push", http.Header{"Content-Type": {"application/proto"}}, msg)
		require.Equal(t, http.StatusBadRequest, status, text)
		require.Contains(t, text, "UTF-8")
		check(t)
	})
	// Deep stacks lose their leaf-side frames; long symbols are cut.
	deep := make([]string, 5000)
	for i := range deep {
		deep[i] = "frame" + strconv.Itoa(i)
	}
	require.NoError(t, p.push(ctx, encode(t, cpuProfile(now, [][]string{deep}, []int64{2})), "service_name", "deep"))
	fg := p.flamegraph(`{service_name="deep"}`)
	require.Len(t, fg.Levels, 1001, "the root and 1,000 frames")
	names := map[string]bool{}
	for _, n := range fg.Names {
		names[n] = true
	}
	require.True(t, names["frame0"] && names["frame999"] && !names["frame1000"], "the root-side frames are kept")
	long := strings.Repeat("é", 40000) // 80,000 bytes
	require.NoError(t, p.push(ctx, encode(t, cpuProfile(now, [][]string{{"main", long}}, []int64{1})), "service_name", "long"))
	fg = p.flamegraph(`{service_name="long"}`)
	var longest int
	for _, n := range fg.Names {
		longest = max(longest, len(n))
	}
	require.Equal(t, 65534, longest, "cut at 65,535 bytes on a character boundary")
	// Totals spanning the whole int64 range: the heatmap spans them
	// without overflowing, and sums saturate.
	for i, v := range []int64{math.MaxInt64 - 10, math.MinInt64 + 10, math.MaxInt64 - 10} {
		raw := encode(t, cpuProfile(now.Add(time.Duration(i)*time.Second), [][]string{{"main", "huge"}}, []int64{v}))
		require.NoError(t, p.push(ctx, raw, "service_name", "huge"))
	}
	hm, err := p.querier.SelectHeatmap(ctx, connect.NewRequest(&querierv1.SelectHeatmapRequest{
		// Points sum (t-step, t] as Pyroscope's do, none past the end: a
		// one-minute step over three minutes covers the three profiles.
		ProfileTypeID: cpuType, LabelSelector: `{service_name="huge"}`, Start: now.Add(-time.Minute).UnixMilli(), End: now.Add(2 * time.Minute).UnixMilli(), Step: 60,
		QueryType: querierv1.HeatmapQueryType_HEATMAP_QUERY_TYPE_INDIVIDUAL,
	}))
	require.NoError(t, err)
	var counted int32
	for _, s := range hm.Msg.Series {
		for _, slot := range s.Slots {
			for _, c := range slot.Counts {
				counted += c
			}
		}
	}
	require.Equal(t, int32(3), counted)
	p.everyQueryAnswers(t)
}

func (p *proc) flamegraph(selector string) *querierv1.FlameGraph {
	p.t.Helper()
	resp, err := p.querier.SelectMergeStacktraces(context.Background(), connect.NewRequest(&querierv1.SelectMergeStacktracesRequest{
		ProfileTypeID: cpuType, LabelSelector: selector, Start: 1, End: farFuture,
	}))
	require.NoError(p.t, err)
	return resp.Msg.Flamegraph
}

// TestHostileIngest attacks /ingest: bad times, invalid UTF-8, a body over
// the limits (refused, never cut), cross-origin writes and foreign hosts.
func TestHostileIngest(t *testing.T) {
	p := start(t, t.TempDir(), "-max-body-bytes", "65536", "-max-decompressed-bytes", "262144", "-max-profile-bytes", "131072")
	nowS := strconv.FormatInt(time.Now().Unix(), 10)
	ingest := func(params string, header http.Header, body []byte) (int, string) {
		return p.post("/ingest?"+params, header, body)
	}
	status, msg := ingest("name=ok&format=folded&from="+nowS, nil, []byte("main;work 4\n"))
	require.Equal(t, http.StatusOK, status, msg)
	cases := []struct {
		name   string
		params string
		header http.Header
		body   []byte
		status int
		want   string
	}{
		{"from in 5138", "name=bad&format=folded&from=99999999999", nil, []byte("main;x 1\n"), 400, "out of range"},
		{"from NaN", "name=bad&format=folded&from=NaN", nil, []byte("main;x 1\n"), 400, "invalid time"},
		{"from negative", "name=bad&format=folded&from=-100", nil, []byte("main;x 1\n"), 400, "out of range"},
		{"from a day ago", "name=bad&format=folded&from=" + strconv.FormatInt(time.Now().Add(-24*time.Hour).Unix(), 10), nil, []byte("main;x 1\n"), 422, "-reject-older-than"},
		{"frame not UTF-8", "name=bad&format=folded&from=" + nowS, nil, []byte("main;x\xff 1\n"), 422, "not valid UTF-8"},
		{"label not UTF-8", "name=" + url.QueryEscape("bad{env=\xff}") + "&format=folded&from=" + nowS, nil, []byte("main;x 1\n"), 400, "not valid UTF-8"},
		{"body over the limit", "name=bad&format=folded&from=" + nowS, nil, bytes.Repeat([]byte("main;x 1\n"), 10000), 413, "-max-body-bytes"},
		{"gzip over the decompressed limit, not cut", "name=bad&format=folded&from=" + nowS, http.Header{"Content-Encoding": {"gzip"}}, gzipOf(bytes.Repeat([]byte("main;x 1\n"), 40000)), 413, "-max-decompressed-bytes"},
		{"folded over the profile limit", "name=bad&format=folded&from=" + nowS, http.Header{"Content-Encoding": {"gzip"}}, gzipOf(bytes.Repeat([]byte("main;x 1\n"), 20000)), 413, "-max-profile-bytes"},
		{"cross-origin text/plain", "name=bad&format=folded&from=" + nowS, http.Header{"Content-Type": {"text/plain"}, "Origin": {"http://evil.example"}, "Sec-Fetch-Site": {"cross-site"}}, []byte("main;x 1\n"), 403, "cross-origin"},
		{"foreign Host", "name=bad&format=folded&from=" + nowS, http.Header{"Host": {"evil.example:4040"}}, []byte("main;x 1\n"), 403, "not allowed"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if h := c.header.Get("Host"); h != "" {
				req, err := http.NewRequest(http.MethodPost, p.url+"/ingest?"+c.params, bytes.NewReader(c.body))
				require.NoError(t, err)
				req.Host = h
				resp, err := p.hc.Do(req)
				require.NoError(t, err)
				resp.Body.Close()
				require.Equal(t, c.status, resp.StatusCode)
			} else {
				status, msg := ingest(c.params, c.header, c.body)
				require.Equal(t, c.status, status, msg)
				require.Contains(t, msg, c.want)
			}
			require.Equal(t, int64(4*1e7), p.total(`{}`), "only the first profile is stored")
		})
	}
	// The playground's data path is the same guard: a foreign Host on a query is refused too.
	req, err := http.NewRequest(http.MethodPost, p.url+"/querier.v1.QuerierService/ProfileTypes", strings.NewReader("{}"))
	require.NoError(t, err)
	req.Host = "rebind.evil.example"
	req.Header.Set("Content-Type", "application/json")
	resp, err := p.hc.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusForbidden, resp.StatusCode)
	p.everyQueryAnswers(t)
}

func gzipOf(b []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

// TestSeriesLimit refuses the series beyond the limit, all or nothing.
func TestSeriesLimit(t *testing.T) {
	p := start(t, t.TempDir(), "-max-series-per-tenant", "10")
	ctx := context.Background()
	raw := encode(t, cpuProfile(time.Now(), [][]string{{"main"}}, []int64{1}))
	for i := 0; i < 10; i++ {
		require.NoError(t, p.push(ctx, raw, "service_name", fmt.Sprintf("s%d", i)))
	}
	err := p.push(ctx, raw, "service_name", "s10")
	refused(t, err, connect.CodeInvalidArgument, "tenant anonymous", "11 exceeds the limit 10 (-max-series-per-tenant)")
	require.NoError(t, p.push(ctx, raw, "service_name", "s3"), "an active series still takes profiles")
	require.Equal(t, int64(11), p.total(`{}`))
	p.restart()
	err = p.push(ctx, raw, "service_name", "s11")
	refused(t, err, connect.CodeInvalidArgument, "-max-series-per-tenant")
}

// TestTenantsAndToken: with -multitenancy, X-Scope-OrgID separates the
// data and is required; with -auth-token, the bearer token is.
func TestTenantsAndToken(t *testing.T) {
	p := start(t, t.TempDir(), "-multitenancy", "-auth-token", "s3cret")
	raw := encode(t, cpuProfile(time.Now(), [][]string{{"main", "a"}}, []int64{9}))
	as := func(tenant, token string) context.Context {
		return contextWithHeaders(map[string]string{"X-Scope-OrgID": tenant, "Authorization": "Bearer " + token})
	}
	err := p.push(as("a", "wrong"), raw, "service_name", "svc")
	refused(t, err, connect.CodeUnauthenticated, "-auth-token")
	err = p.push(as("", "s3cret"), raw, "service_name", "svc")
	refused(t, err, connect.CodeUnauthenticated, "X-Scope-OrgID")
	require.NoError(t, p.push(as("a", "s3cret"), raw, "service_name", "svc"))
	totalOf := func(tenant string) int64 {
		resp, err := p.querier.SelectMergeStacktraces(as(tenant, "s3cret"), connect.NewRequest(&querierv1.SelectMergeStacktracesRequest{
			ProfileTypeID: cpuType, LabelSelector: `{__tenant__=~".*"}`, Start: 1, End: farFuture,
		}))
		require.NoError(t, err)
		return resp.Msg.Flamegraph.GetTotal()
	}
	require.Equal(t, int64(9), totalOf("a"))
	require.Zero(t, totalOf("b"), "tenant b sees nothing of tenant a")
	names, err := p.querier.ProfileTypes(as("b", "s3cret"), connect.NewRequest(&querierv1.ProfileTypesRequest{Start: 1, End: farFuture}))
	require.NoError(t, err)
	require.Empty(t, names.Msg.ProfileTypes)
	labelNames, err := p.querier.LabelNames(as("a", "s3cret"), connect.NewRequest(&typesv1.LabelNamesRequest{Start: 1, End: farFuture}))
	require.NoError(t, err)
	require.Contains(t, labelNames.Msg.Names, "service_name")
	require.NotContains(t, labelNames.Msg.Names, "__tenant__", "the tenant label is never shown")
	values, err := p.querier.LabelValues(as("b", "s3cret"), connect.NewRequest(&typesv1.LabelValuesRequest{Name: "service_name", Start: 1, End: farFuture}))
	require.NoError(t, err)
	require.Empty(t, values.Msg.Names)
}

type headerKey struct{}

func contextWithHeaders(h map[string]string) context.Context {
	return context.WithValue(context.Background(), headerKey{}, h)
}
