// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package demo

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"runtime/pprof"
	"strconv"

	"go.opentelemetry.io/otel/trace"

	"github.com/emberscope/emberscope/x/k6"
)

// Sample label names and the categories the service's work is filed under.
const (
	labelCategory = "category"
	labelVehicle  = "vehicle"

	categoryRouting       = "routing"
	categoryPricing       = "pricing"
	categoryMetrics       = "observability :: metrics"
	categorySerialization = "serialization"
)

// Vehicles are the service's routes, one per vehicle kind.
var Vehicles = []string{"car", "bike", "scooter"}

// Service is the demo ride-share service. Its handlers do real work —
// route planning on a generated city, fleet search, surge pricing, audit
// hashing, JSON encoding — under pprof labels `vehicle` and `category`.
type Service struct {
	city    *cityMap
	fleet   *scooterFleet
	demand  *demandHistory
	metrics tripMetrics
	// tracer starts a span per request (tracing.go); spans keeps the ended ones.
	tracer trace.Tracer
	spans  *spanRing
}

// citySide is the number of intersections along each side of the city.
const citySide = 90

// cityNodes is the number of intersections of the service's city.
const cityNodes = citySide * citySide

// NewService generates the city, fleet and demand history (the same for
// every run).
func NewService() *Service {
	tracer, spans := newTracing()
	return &Service{
		city:   newCityMap(citySide, citySide, 1),
		fleet:  newScooterFleet(15_000, citySide, citySide, 2),
		demand: newDemandHistory(16, 20_000, 3),
		tracer: tracer,
		spans:  spans,
	}
}

// RecentSpans lists the service's last ended spans, most recent first.
func (s *Service) RecentSpans() []SpanRecord { return s.spans.Recent() }

// Nodes is the number of intersections of the city: valid `from`/`to`
// query values are 0 to Nodes()-1.
func (s *Service) Nodes() int { return s.city.nodes() }

// Handler serves GET /car, /bike and /scooter, each request in its own
// OpenTelemetry server span (its samples carry span_id, span_name and
// trace_id labels), wrapped in the k6 baggage middleware. Each takes `from`
// and `to` intersections, `step` (`quote`, the default, or `book`) and an
// optional numeric `rider`. GET /debug/spans lists the recent spans.
func (s *Service) Handler() http.Handler {
	mux := http.NewServeMux()
	for _, v := range Vehicles {
		mux.Handle("GET /"+v, traced(s.tracer, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { s.serveTrip(w, r, v) })))
	}
	mux.HandleFunc("GET /debug/spans", s.spans.serveSpans)
	return k6.LabelsFromBaggageHandler(mux)
}

// tripRequest is a parsed trip query.
type tripRequest struct {
	vehicle  string
	from, to int
	book     bool
	rider    uint64
}

func (s *Service) parseTrip(vehicle string, q url.Values) (tripRequest, error) {
	t := tripRequest{vehicle: vehicle, to: s.Nodes() - 1}
	for _, p := range []struct {
		name string
		dst  *int
	}{{"from", &t.from}, {"to", &t.to}} {
		raw := q.Get(p.name)
		if raw == "" {
			continue
		}
		n, err := strconv.Atoi(raw)
		if err != nil || n < 0 || n >= s.Nodes() {
			return t, fmt.Errorf("query parameter %s=%q: want an intersection from 0 to %d", p.name, raw, s.Nodes()-1)
		}
		*p.dst = n
	}
	switch step := q.Get("step"); step {
	case "", "quote":
	case "book":
		t.book = true
	default:
		return t, fmt.Errorf("query parameter step=%q: want quote or book", step)
	}
	if raw := q.Get("rider"); raw != "" {
		n, err := strconv.ParseUint(raw, 10, 64)
		if err != nil {
			return t, fmt.Errorf("query parameter rider=%q: want a non-negative integer", raw)
		}
		t.rider = n
	}
	return t, nil
}

func (s *Service) serveTrip(w http.ResponseWriter, r *http.Request, vehicle string) {
	req, err := s.parseTrip(vehicle, r.URL.Query())
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	pprof.Do(r.Context(), pprof.Labels(labelVehicle, vehicle), func(ctx context.Context) {
		trip := s.planTrip(ctx, req)
		inCategory(ctx, categorySerialization, func() {
			var body bytes.Buffer
			if err := encodeTripResponse(&body, trip); err != nil {
				http.Error(w, "encoding the trip: "+err.Error(), http.StatusInternalServerError)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			_, _ = body.WriteTo(w)
		})
	})
}

// planTrip does the vehicle's work, each part under its category label.
func (s *Service) planTrip(ctx context.Context, req tripRequest) *tripResponse {
	trip := &tripResponse{Vehicle: req.vehicle, Step: "quote", From: req.from, To: req.to}
	if req.book {
		trip.Step = "book"
	}
	var route []int
	inCategory(ctx, categoryRouting, func() {
		switch req.vehicle {
		case "car":
			route, trip.TravelTime = s.city.planCarRoute(req.from, req.to)
		case "bike":
			route, trip.TravelTime = s.city.planBikeRoute(req.from, req.to)
		case "scooter":
			x, y := float64(req.from%s.city.width), float64(req.from/s.city.width)
			trip.Scooters = s.fleet.locateNearestScooters(x, y, 25, 0.2)
			route, trip.TravelTime = s.city.planBikeRoute(req.from, req.to)
		}
		trip.Route = s.city.toWaypoints(route)
		trip.Directions = s.city.describeTurns(route)
	})
	inCategory(ctx, categoryPricing, func() {
		if req.vehicle == "scooter" {
			trip.Scooters = rankScootersByBattery(trip.Scooters)
		}
		trip.Surge = s.demand.computeSurgePrice(req.from % 16)
		trip.Fare = estimateFare(req.vehicle, trip.TravelTime, trip.Surge)
		if req.book {
			trip.Fare = applyPromotions(trip.Fare, req.rider)
		}
	})
	inCategory(ctx, categoryMetrics, func() {
		trip.AuditID = s.metrics.recordTripMetrics(route, trip.TravelTime)
	})
	return trip
}

// inCategory runs f with the sample label category=name added to ctx's.
func inCategory(ctx context.Context, name string, f func()) {
	pprof.Do(ctx, pprof.Labels(labelCategory, name), func(context.Context) { f() })
}
