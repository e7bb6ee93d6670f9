// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package demo

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel/baggage"
)

// Scenarios are the k6 scenarios the load generator plays: browsers ask for
// quotes on every vehicle, buyers book cars and scooters.
var Scenarios = []string{"browse", "checkout"}

// LoadOptions configures the load generator.
type LoadOptions struct {
	// BaseURL is the demo service, e.g. "http://127.0.0.1:8081".
	BaseURL string
	// Nodes is the number of intersections of the service's city.
	Nodes int
	// Workers is the number of virtual users (default 2).
	Workers int
	// Pause is each virtual user's think time between requests (default 20ms).
	Pause time.Duration
	// TestRunID is sent as k6.test_run_id (default: the start time in unix seconds).
	TestRunID string
	// Client sends the requests (default: a client with a 10 s timeout).
	Client *http.Client
}

// LoadGenerator plays k6-style virtual users against the demo service:
// each request carries W3C baggage with k6.test_run_id, k6.scenario and
// k6.name (the full request URL), as k6's instrumentation sends it.
type LoadGenerator struct {
	opts     LoadOptions
	requests atomic.Int64
	failures atomic.Int64
	lastErr  atomic.Value // string
}

// NewLoadGenerator checks the options and fills in defaults.
func NewLoadGenerator(opts LoadOptions) (*LoadGenerator, error) {
	if _, err := url.Parse(opts.BaseURL); err != nil || opts.BaseURL == "" {
		return nil, fmt.Errorf("load generator: base URL %q is not a URL", opts.BaseURL)
	}
	if opts.Nodes < 2 {
		return nil, fmt.Errorf("load generator: the city needs at least 2 intersections, got %d", opts.Nodes)
	}
	if opts.Workers <= 0 {
		opts.Workers = 2
	}
	if opts.Pause <= 0 {
		opts.Pause = 20 * time.Millisecond
	}
	if opts.TestRunID == "" {
		opts.TestRunID = strconv.FormatInt(time.Now().Unix(), 10)
	}
	if opts.Client == nil {
		opts.Client = &http.Client{Timeout: 10 * time.Second}
	}
	return &LoadGenerator{opts: opts}, nil
}

// TestRunID is the k6.test_run_id the generator sends.
func (g *LoadGenerator) TestRunID() string { return g.opts.TestRunID }

// Stats returns how many requests were sent, how many failed, and the last
// failure.
func (g *LoadGenerator) Stats() (requests, failures int64, lastErr string) {
	s, _ := g.lastErr.Load().(string)
	return g.requests.Load(), g.failures.Load(), s
}

// Run sends requests until ctx is done. Virtual user i plays scenario
// Scenarios[i % len(Scenarios)].
func (g *LoadGenerator) Run(ctx context.Context) {
	var wg sync.WaitGroup
	for i := range g.opts.Workers {
		wg.Go(func() {
			g.virtualUser(ctx, Scenarios[i%len(Scenarios)], uint64(i))
		})
	}
	wg.Wait()
}

// virtualUser loops over its scenario's requests until ctx is done.
func (g *LoadGenerator) virtualUser(ctx context.Context, scenario string, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, uint64(time.Now().UnixNano())))
	pause := time.NewTimer(0)
	defer pause.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-pause.C:
		}
		g.send(ctx, g.nextURL(rng, scenario), scenario)
		pause.Reset(g.opts.Pause)
	}
}

// nextURL picks the next request of a scenario.
func (g *LoadGenerator) nextURL(rng *rand.Rand, scenario string) string {
	q := url.Values{}
	q.Set("from", strconv.Itoa(rng.IntN(g.opts.Nodes)))
	q.Set("to", strconv.Itoa(rng.IntN(g.opts.Nodes)))
	q.Set("rider", strconv.FormatUint(rng.Uint64N(1_000_000), 10))
	vehicle := Vehicles[rng.IntN(len(Vehicles))]
	if scenario == "checkout" {
		q.Set("step", "book")
		vehicle = []string{"car", "scooter"}[rng.IntN(2)]
	}
	return g.opts.BaseURL + "/" + vehicle + "?" + q.Encode()
}

// send makes one request with k6 baggage and drains the answer.
func (g *LoadGenerator) send(ctx context.Context, target, scenario string) {
	g.requests.Add(1)
	err := func() error {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
		if err != nil {
			return err
		}
		bag, err := k6Baggage(g.opts.TestRunID, scenario, target)
		if err != nil {
			return err
		}
		req.Header.Set("Baggage", bag)
		resp, err := g.opts.Client.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		if _, err := io.Copy(io.Discard, resp.Body); err != nil {
			return err
		}
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("GET %s: %s", target, resp.Status)
		}
		return nil
	}()
	if err != nil && ctx.Err() == nil {
		g.failures.Add(1)
		g.lastErr.Store(err.Error())
	}
}

// k6Baggage encodes the baggage header k6 sends for one request.
func k6Baggage(testRunID, scenario, name string) (string, error) {
	var members []baggage.Member
	for _, kv := range [][2]string{{"k6.test_run_id", testRunID}, {"k6.scenario", scenario}, {"k6.name", name}} {
		m, err := baggage.NewMemberRaw(kv[0], kv[1])
		if err != nil {
			return "", fmt.Errorf("baggage member %s: %w", kv[0], err)
		}
		members = append(members, m)
	}
	b, err := baggage.New(members...)
	if err != nil {
		return "", err
	}
	return b.String(), nil
}
