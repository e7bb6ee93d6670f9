// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package demo

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime/pprof"
	"strings"
	"testing"
	"time"

	"github.com/google/pprof/profile"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/baggage"
)

func getTrip(t *testing.T, url string) (int, tripResponse, string) {
	t.Helper()
	resp, err := http.Get(url)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	var trip tripResponse
	if resp.StatusCode == http.StatusOK {
		require.NoError(t, json.Unmarshal(body, &trip), "body: %s", body)
	}
	return resp.StatusCode, trip, string(body)
}

func TestServiceAnswersTrips(t *testing.T) {
	svc := NewService()
	srv := httptest.NewServer(svc.Handler())
	defer srv.Close()

	status, car, _ := getTrip(t, srv.URL+"/car?from=0&to=8099")
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, "car", car.Vehicle)
	assert.Equal(t, "quote", car.Step)
	require.NotEmpty(t, car.Route)
	assert.Equal(t, 0, car.Route[0].Node)
	assert.Equal(t, 8099, car.Route[len(car.Route)-1].Node)
	assert.Greater(t, car.Fare, 0.0)

	// Along an avenue (row 0) a bike is slower than a car, and its route is
	// a chain of neighbouring intersections.
	status, bike, _ := getTrip(t, srv.URL+"/bike?from=0&to=89")
	require.Equal(t, http.StatusOK, status)
	status, carOnAvenue, _ := getTrip(t, srv.URL+"/car?from=0&to=89")
	require.Equal(t, http.StatusOK, status)
	assert.Greater(t, bike.TravelTime, carOnAvenue.TravelTime)
	require.NotEmpty(t, bike.Route)
	for i := 1; i < len(bike.Route); i++ {
		a, b := bike.Route[i-1], bike.Route[i]
		assert.Equal(t, 1, abs(a.X-b.X)+abs(a.Y-b.Y), "route jumps from %v to %v", a, b)
	}

	status, scooter, _ := getTrip(t, srv.URL+"/scooter?from=4000&to=10&step=book&rider=7")
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, "book", scooter.Step)
	assert.Len(t, scooter.Scooters, 25)
	for _, s := range scooter.Scooters {
		assert.GreaterOrEqual(t, s.Battery, 0.2)
	}
}

func TestServiceRejectsBadQueries(t *testing.T) {
	srv := httptest.NewServer(NewService().Handler())
	defer srv.Close()
	for query, want := range map[string]string{
		"/car?from=-1":      `from="-1": want an intersection from 0 to 8099`,
		"/bike?to=x":        `to="x": want an intersection`,
		"/car?step=pay":     `step="pay": want quote or book`,
		"/scooter?rider=-3": `rider="-3": want a non-negative integer`,
	} {
		status, _, body := getTrip(t, srv.URL+query)
		assert.Equal(t, http.StatusBadRequest, status, query)
		assert.Contains(t, body, want, query)
	}
	resp, err := http.Post(srv.URL+"/car", "text/plain", nil)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode)
}

func TestK6BaggageEncodesFullURL(t *testing.T) {
	b, err := k6Baggage("42", "checkout", "http://127.0.0.1:1/car?from=1&to=2")
	require.NoError(t, err)
	parsed, err := baggage.Parse(b)
	require.NoError(t, err, b)
	assert.Equal(t, "42", parsed.Member("k6.test_run_id").Value())
	assert.Equal(t, "checkout", parsed.Member("k6.scenario").Value())
	assert.Equal(t, "http://127.0.0.1:1/car?from=1&to=2", parsed.Member("k6.name").Value())
}

// labelsByFunction maps each function name (without its package) of a CPU
// profile to the "label=value" pairs seen on its samples.
type labelsByFunction map[string]map[string]bool

func (seen labelsByFunction) add(p *profile.Profile) {
	for _, s := range p.Sample {
		for _, loc := range s.Location {
			for _, line := range loc.Line {
				name := line.Function.Name[strings.LastIndex(line.Function.Name, ".")+1:]
				if seen[name] == nil {
					seen[name] = map[string]bool{}
				}
				for k, vs := range s.Label {
					for _, v := range vs {
						seen[name][k+"="+v] = true
					}
				}
			}
		}
	}
}

// missing returns the first wanted function or label not seen yet.
func (seen labelsByFunction) missing(want map[string][]string) string {
	for fn, labels := range want {
		if seen[fn] == nil {
			return "no CPU sample in " + fn
		}
		for _, l := range labels {
			if !seen[fn][l] {
				return fn + " samples lack " + l
			}
		}
	}
	return ""
}

// TestLoadOnServiceIsLabelled runs the load generator against the service
// under the CPU profiler and checks that the samples of the service's work
// carry the vehicle, category and k6 labels. It profiles one second at a
// time until every expected function has been sampled (small functions may
// need a few rounds on a busy machine), for at most 30 rounds.
func TestLoadOnServiceIsLabelled(t *testing.T) {
	svc := NewService()
	srv := httptest.NewServer(svc.Handler())
	defer srv.Close()
	gen, err := NewLoadGenerator(LoadOptions{BaseURL: srv.URL, Nodes: svc.Nodes(), Workers: 4, Pause: time.Millisecond, TestRunID: "run-7"})
	require.NoError(t, err)
	want := map[string][]string{
		"planCarRoute":          {"vehicle=car", "category=routing", "k6_test_run_id=run-7", "k6_name=/car"},
		"planBikeRoute":         {"category=routing", "k6_name=/bike", "k6_scenario=browse"},
		"applyPromotions":       {"category=pricing", "k6_scenario=checkout"},
		"hashTripEvents":        {"category=observability :: metrics"},
		"computeSurgePrice":     {"category=pricing"},
		"locateNearestScooters": {"vehicle=scooter", "category=routing"},
	}

	seen := labelsByFunction{}
	for round := 0; round < 30 && (round == 0 || seen.missing(want) != ""); round++ {
		var buf bytes.Buffer
		require.NoError(t, pprof.StartCPUProfile(&buf))
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		gen.Run(ctx)
		cancel()
		pprof.StopCPUProfile()
		p, err := profile.Parse(&buf)
		require.NoError(t, err)
		seen.add(p)
	}
	requests, failures, lastErr := gen.Stats()
	assert.Zero(t, failures, "last failure: %s", lastErr)
	assert.Greater(t, requests, int64(4))
	assert.Empty(t, seen.missing(want))
	// k6_name is normalised: no label value is a raw URL.
	for fn, labels := range seen {
		for l := range labels {
			assert.NotContains(t, l, "://", "function %s has a raw URL label", fn)
		}
	}
}
