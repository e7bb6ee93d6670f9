// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/grafana/grafana-plugin-sdk-go/backend"

	"github.com/emberscope/emberscope/pkg/datasource/source"
	"github.com/emberscope/emberscope/pkg/datasource/source/parca"
	"github.com/emberscope/emberscope/pkg/datasource/source/pyroscope"
	"github.com/emberscope/emberscope/pkg/datasource/source/rangesplit"
	"github.com/emberscope/emberscope/pkg/profile/model"
)

// healthRecent is the range CheckHealth first lists profile types over: one
// day, which Pyroscope's default max_query_length accepts.
const healthRecent = 24 * time.Hour

// healthLookback is how far back CheckHealth looks for profiles when the
// last day has none, in pieces the server accepts.
const healthLookback = 7 * 24 * time.Hour

// CheckHealth lists the server's profile types: it tells an unreachable
// server, refused credentials and a server without profiles apart, and
// names the server's kind and its longest query range.
func (d *Datasource) CheckHealth(ctx context.Context, _ *backend.CheckHealthRequest) (*backend.CheckHealthResult, error) {
	now := d.now()
	types, err := d.src.ProfileTypes(ctx, source.TimeRange{From: now.Add(-healthRecent), To: now})
	within := "the last 24 hours"
	if err == nil && len(types) == 0 {
		types, err = d.src.ProfileTypes(ctx, source.TimeRange{From: now.Add(-healthLookback), To: now})
		within = "the last 7 days"
	}
	if err != nil {
		return healthError(d, err), nil
	}
	if err := d.split.Probe(ctx, now); err != nil && ctx.Err() == nil {
		d.logger.Debug("could not learn the profile server's longest query range", "error", err)
	}
	server := d.serverName()
	if len(types) == 0 {
		return &backend.CheckHealthResult{
			Status:  backend.HealthStatusError,
			Message: fmt.Sprintf("Connected to the profile server at %s (%s), but it holds no profiles from the last 7 days: send profiles to it first. %s", d.serverURL, server, d.limitText()),
		}, nil
	}
	ids := make([]string, 0, len(types))
	for _, t := range types {
		ids = append(ids, t.String())
	}
	return &backend.CheckHealthResult{
		Status: backend.HealthStatusOk,
		Message: fmt.Sprintf("Connected to the profile server at %s (%s): %d profile types in %s (%s). %s",
			d.serverURL, server, len(types), within, strings.Join(ids, ", "), d.limitText()),
	}, nil
}

func healthError(d *Datasource, err error) *backend.CheckHealthResult {
	var me *model.Error
	msg := err.Error()
	if !errors.As(err, &me) {
		msg = fmt.Sprintf("profile server at %s: %v", d.serverURL, err)
	}
	return &backend.CheckHealthResult{Status: backend.HealthStatusError, Message: msg}
}

// serverName names the API the server speaks, as configured or detected.
func (d *Datasource) serverName() string {
	src := d.split.Inner()
	if ds, ok := src.(*detectingSource); ok {
		ds.mu.Lock()
		src = ds.src
		ds.mu.Unlock()
	}
	switch src.(type) {
	case *pyroscope.Client:
		return "Pyroscope querier API"
	case *parca.Client:
		return "Parca API"
	}
	switch d.settings.ServerKind {
	case model.ServerParca:
		return "Parca API"
	case model.ServerPyroscope:
		return "Pyroscope querier API"
	}
	return "kind not detected"
}

// limitText says what the datasource knows of the server's longest query range.
func (d *Datasource) limitText() string {
	limit, origin := d.split.Limit()
	l := rangesplit.FormatDuration(limit)
	switch origin {
	case rangesplit.Configured:
		return fmt.Sprintf("Longest query range: %s (the datasource's maxQueryLength setting): longer ranges are queried in pieces of ≤ %s and merged.", l, l)
	case rangesplit.Learned:
		return fmt.Sprintf("The server refuses ranges over %s (max_query_length): longer ranges are queried in pieces of ≤ %s and merged.", l, l)
	case rangesplit.NoneFound:
		return fmt.Sprintf("The server answers %s in one call: no query length limit up to that.", rangesplit.FormatDuration(rangesplit.ProbeRange))
	}
	return "The server's longest query range is not known yet: a refused range will be queried in pieces."
}
