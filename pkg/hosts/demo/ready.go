// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package demo

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"connectrpc.com/connect"
	querierv1 "github.com/grafana/pyroscope/api/gen/proto/go/querier/v1"
	"github.com/grafana/pyroscope/api/gen/proto/go/querier/v1/querierv1connect"
)

// CPUProfileType is the Pyroscope profile type id of Go CPU profiles.
const CPUProfileType = "process_cpu:cpu:nanoseconds:cpu:nanoseconds"

// serviceSelector selects the demo service's series.
const serviceSelector = `{service_name="` + AppName + `"}`

// ReadyQuery is the query the demo opens in the playground: the service's
// CPU time with one base frame per vehicle.
const ReadyQuery = CPUProfileType + serviceSelector + " by (vehicle)"

// waitForProfiles polls the profile server's querier API until the demo
// service's CPU profiles give a non-empty flamegraph since since, or ctx
// ends.
func waitForProfiles(ctx context.Context, serverURL string, since time.Time) error {
	client := querierv1connect.NewQuerierServiceClient(&http.Client{Timeout: 10 * time.Second}, serverURL)
	tick := time.NewTicker(500 * time.Millisecond)
	defer tick.Stop()
	var lastErr error
	for {
		total, err := profileTotal(ctx, client, CPUProfileType, since)
		if err == nil && total > 0 {
			return nil
		}
		if err != nil {
			lastErr = err
		}
		select {
		case <-ctx.Done():
			if lastErr != nil {
				return fmt.Errorf("no profile of %s in %s yet (last query error: %v): %w", AppName, serverURL, lastErr, ctx.Err())
			}
			return fmt.Errorf("no profile of %s in %s yet: %w", AppName, serverURL, ctx.Err())
		case <-tick.C:
		}
	}
}

// profileTotal is the total of the profiles of type profileType the server
// holds for the demo service since since.
func profileTotal(ctx context.Context, client querierv1connect.QuerierServiceClient, profileType string, since time.Time) (int64, error) {
	maxNodes := int64(16)
	resp, err := client.SelectMergeStacktraces(ctx, connect.NewRequest(&querierv1.SelectMergeStacktracesRequest{
		ProfileTypeID: profileType,
		LabelSelector: serviceSelector,
		Start:         since.Add(-time.Minute).UnixMilli(),
		End:           time.Now().Add(time.Minute).UnixMilli(),
		MaxNodes:      &maxNodes,
	}))
	if err != nil {
		return 0, err
	}
	return resp.Msg.GetFlamegraph().GetTotal(), nil
}

// playgroundLink is the playground address that opens ReadyQuery.
func playgroundLink(base string) string {
	return base + "/?" + url.Values{"query": {ReadyQuery}}.Encode()
}

// AppHome is the path of the app's home page (its Services page), which
// the playground serves as Grafana serves an app's pages.
const AppHome = "/a/emberscope-app/services"

// appLink is the app's home page on the playground at base, on CPU.
func appLink(base string) string {
	return base + AppHome + "?" + url.Values{"type": {CPUProfileType}}.Encode()
}
