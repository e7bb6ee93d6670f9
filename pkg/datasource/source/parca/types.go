// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package parca

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/emberscope/emberscope/pkg/datasource/source"
	"github.com/emberscope/emberscope/pkg/profile/model"
)

// deltaSuffix ends the Parca ID of a delta profile type.
const deltaSuffix = ":delta"

// refetchEvery bounds how often an unknown profile type ID refetches the
// server's type list.
const refetchEvery = 10 * time.Second

// ProfileTypes lists the profile types with data in r (all of them when r
// is zero), with Pyroscope-style IDs. The order is stable (by ID); Parca's
// own order varies between calls.
func (c *Client) ProfileTypes(ctx context.Context, r source.TimeRange) ([]model.ProfileType, error) {
	q := url.Values{}
	addRange(q, "", r)
	wire, err := c.getTypes(ctx, q)
	if err != nil {
		return nil, err
	}
	out := make([]model.ProfileType, 0, len(wire))
	for _, w := range wire {
		out = append(out, toProfileType(w))
	}
	sortTypes(out)
	return out, nil
}

// getTypes calls /api/profiles/types and remembers which types are delta.
func (c *Client) getTypes(ctx context.Context, q url.Values) ([]wireProfileType, error) {
	var resp typesResponse
	if err := c.get(ctx, "/api/profiles/types", q, &resp); err != nil {
		return nil, err
	}
	c.types.learn(resp.Types)
	return resp.Types, nil
}

// fetchTypes lists every profile type of the server.
func (c *Client) fetchTypes(ctx context.Context) ([]wireProfileType, error) {
	var resp typesResponse
	if err := c.get(ctx, "/api/profiles/types", url.Values{}, &resp); err != nil {
		return nil, err
	}
	return resp.Types, nil
}

// toProfileType converts a Parca type into ours.
func toProfileType(w wireProfileType) model.ProfileType {
	return model.ProfileType{
		Name:       w.Name,
		SampleType: w.SampleType,
		SampleUnit: w.SampleUnit,
		PeriodType: w.PeriodType,
		PeriodUnit: w.PeriodUnit,
	}
}

// sortTypes orders types by ID.
func sortTypes(ts []model.ProfileType) {
	slices.SortFunc(ts, func(a, b model.ProfileType) int { return strings.Compare(a.String(), b.String()) })
}

// typeIndex maps our profile type IDs to Parca's, learning from every
// /types answer and fetching the list when asked for an ID it lacks.
type typeIndex struct {
	fetch func(context.Context) ([]wireProfileType, error)

	mu      sync.Mutex
	parcaID map[string]string
	fetched time.Time
}

// learn records the Parca IDs of ws.
func (x *typeIndex) learn(ws []wireProfileType) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.parcaID == nil {
		x.parcaID = make(map[string]string, len(ws))
	}
	for _, w := range ws {
		id := toProfileType(w).String()
		if w.Delta {
			x.parcaID[id] = id + deltaSuffix
		} else {
			x.parcaID[id] = id
		}
	}
}

// lookup returns the known Parca ID of id.
func (x *typeIndex) lookup(id string) (string, bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	p, ok := x.parcaID[id]
	return p, ok
}

// resolve returns the Parca ID of one of our profile type IDs: ":delta" is
// appended for the server's delta types. An ID already ending in ":delta"
// is kept; an ID the server does not list is sent as it is.
func (x *typeIndex) resolve(ctx context.Context, id string) (string, error) {
	if err := checkTypeID(id); err != nil {
		return "", err
	}
	if strings.HasSuffix(id, deltaSuffix) {
		return id, nil
	}
	if p, ok := x.lookup(id); ok {
		return p, nil
	}
	x.mu.Lock()
	stale := time.Since(x.fetched) >= refetchEvery
	if stale {
		x.fetched = time.Now()
	}
	x.mu.Unlock()
	if stale {
		ws, err := x.fetch(ctx)
		if err != nil {
			return "", fmt.Errorf("parca: listing profile types to resolve %q: %w", id, err)
		}
		x.learn(ws)
		if p, ok := x.lookup(id); ok {
			return p, nil
		}
	}
	return id, nil
}

// checkTypeID reports an ID that is not a profile type ID, optionally
// followed by Parca's ":delta".
func checkTypeID(id string) error {
	if _, err := model.ParseProfileType(strings.TrimSuffix(id, deltaSuffix)); err != nil {
		return fmt.Errorf("parca: %w", err)
	}
	return nil
}
