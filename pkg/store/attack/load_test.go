// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package attack_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"connectrpc.com/connect"
	"github.com/google/pprof/profile"
	querierv1 "github.com/grafana/pyroscope/api/gen/proto/go/querier/v1"
	typesv1 "github.com/grafana/pyroscope/api/gen/proto/go/types/v1"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/internal/fixtures"
)

// TestLoad runs concurrent pushes of real profiles and Explore-like queries
// against the store on loopback for a fixed time (3 s; 30 s with
// EMBERSCOPE_FULL=1) and reports throughput and latency percentiles. No
// request may fail. The numbers are reported, never asserted.
func TestLoad(t *testing.T) {
	d := 3 * time.Second
	if fixtures.Full() {
		d = 30 * time.Second
	}
	const pushers, queriers = 4, 4
	p := start(t, t.TempDir())
	var pushed [][]byte
	for _, f := range []string{"labeled.cpu.redated.pb.gz", "bench-sort.cpu.redated.pb.gz", "deep-chain.cpu.redated.pb.gz"} {
		pr, err := profile.ParseData(fixtures.Read(t, "pyroscope/pushed-profiles/"+f))
		require.NoError(t, err)
		pushed = append(pushed, encode(t, pr))
	}
	retimed := func(i, n int) []byte {
		pr, err := profile.ParseData(pushed[i%len(pushed)])
		require.NoError(t, err)
		pr.TimeNanos = time.Now().UnixNano() + int64(n)
		return encode(t, pr)
	}
	type result struct {
		kind string
		d    time.Duration
		err  error
	}
	results := make(chan result, 1024)
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	var wg sync.WaitGroup
	for i := 0; i < pushers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; ctx.Err() == nil; n++ {
				raw := retimed(i+n, n)
				t0 := time.Now()
				err := p.push(context.Background(), raw, "service_name", fmt.Sprintf("load%d", i%2), "pod", fmt.Sprintf("pod%d", n%8))
				results <- result{"push", time.Since(t0), err}
			}
		}()
	}
	q := p.querier
	for i := 0; i < queriers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				now := time.Now().UnixMilli()
				from := now - 3600_000
				t0 := time.Now()
				_, err := q.ProfileTypes(context.Background(), connect.NewRequest(&querierv1.ProfileTypesRequest{Start: from, End: now}))
				if err == nil {
					_, err = q.LabelValues(context.Background(), connect.NewRequest(&typesv1.LabelValuesRequest{Name: "service_name", Start: from, End: now}))
				}
				if err == nil {
					_, err = q.SelectMergeStacktraces(context.Background(), connect.NewRequest(&querierv1.SelectMergeStacktracesRequest{
						ProfileTypeID: cpuType, LabelSelector: fmt.Sprintf(`{service_name="load%d"}`, i%2), Start: from, End: now,
					}))
				}
				if err == nil {
					_, err = q.SelectSeries(context.Background(), connect.NewRequest(&querierv1.SelectSeriesRequest{
						ProfileTypeID: cpuType, LabelSelector: "{}", Start: from, End: now, Step: 15, GroupBy: []string{"pod"},
					}))
				}
				results <- result{"query", time.Since(t0), err}
			}
		}()
	}
	go func() { wg.Wait(); close(results) }()
	lat := map[string][]time.Duration{}
	var errs []error
	for r := range results {
		if r.err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", r.kind, r.err))
			continue
		}
		lat[r.kind] = append(lat[r.kind], r.d)
	}
	require.Empty(t, errs)
	for _, kind := range []string{"push", "query"} {
		ls := lat[kind]
		require.NotEmpty(t, ls, kind)
		slices.Sort(ls)
		pct := func(q float64) time.Duration { return ls[min(len(ls)-1, int(q*float64(len(ls))))] }
		line := fmt.Sprintf("load %s: %d in %s (%.1f/s), p50 %s, p99 %s", kind, len(ls), d, float64(len(ls))/d.Seconds(),
			pct(0.50).Round(100*time.Microsecond), pct(0.99).Round(100*time.Microsecond))
		t.Log(line)
		fmt.Println(line)
	}
	p.everyQueryAnswers(t)
}
