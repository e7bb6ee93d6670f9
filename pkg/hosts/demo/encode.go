// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package demo

import (
	"encoding/json"
	"fmt"
	"io"
)

// tripResponse is what the service answers for a trip quote or booking.
type tripResponse struct {
	Vehicle    string      `json:"vehicle"`
	Step       string      `json:"step"`
	From       int         `json:"from"`
	To         int         `json:"to"`
	Route      []waypoint  `json:"route,omitempty"`
	Directions []string    `json:"directions,omitempty"`
	TravelTime float64     `json:"travelTime"`
	Surge      float64     `json:"surge"`
	Fare       float64     `json:"fare"`
	Scooters   []candidate `json:"scooters,omitempty"`
	AuditID    string      `json:"auditId"`
}

// waypoint is one intersection of a route, with its coordinates.
type waypoint struct {
	Node int `json:"node"`
	X    int `json:"x"`
	Y    int `json:"y"`
}

// encodeTripResponse writes the trip as indented JSON.
func encodeTripResponse(w io.Writer, trip *tripResponse) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(trip)
}

// toWaypoints expands a route's node ids into waypoints.
func (m *cityMap) toWaypoints(route []int) []waypoint {
	out := make([]waypoint, len(route))
	for i, n := range route {
		out[i] = waypoint{Node: n, X: n % m.width, Y: n / m.width}
	}
	return out
}

// describeTurns writes turn-by-turn directions for a route: one line per
// intersection, naming the street taken and the turn made onto it.
func (m *cityMap) describeTurns(route []int) []string {
	if len(route) < 2 {
		return nil
	}
	out := make([]string, 0, len(route)-1)
	prevDX, prevDY := 0, 0
	for i := 1; i < len(route); i++ {
		a, b := route[i-1], route[i]
		dx, dy := b%m.width-a%m.width, b/m.width-a/m.width
		turn := "continue"
		switch cross := prevDX*dy - prevDY*dx; {
		case i == 1:
			turn = "head"
		case cross > 0:
			turn = "turn right"
		case cross < 0:
			turn = "turn left"
		}
		street := fmt.Sprintf("%d Street", b/m.width)
		if dx == 0 {
			street = fmt.Sprintf("%d Avenue", b%m.width)
		}
		out = append(out, fmt.Sprintf("%s onto %s towards (%d, %d)", turn, street, b%m.width, b/m.width))
		prevDX, prevDY = dx, dy
	}
	return out
}
