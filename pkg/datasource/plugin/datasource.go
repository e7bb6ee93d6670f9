// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Package plugin holds the datasource's SDK handlers: QueryData (a
// QueryTypeMux with one file per query type), CallResource (one file per
// route), CheckHealth, the live-mode stream handlers (stream.go) and the
// instance factory. It plans calls to a
// source.Source from the parsed query alone and turns the answers into data
// frames; it knows no wire format.
package plugin

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/grafana/grafana-plugin-sdk-go/backend"
	"github.com/grafana/grafana-plugin-sdk-go/backend/datasource"
	"github.com/grafana/grafana-plugin-sdk-go/backend/instancemgmt"
	"github.com/grafana/grafana-plugin-sdk-go/backend/log"
	"github.com/maypok86/otter/v2"
	"golang.org/x/sync/singleflight"

	"github.com/emberscope/emberscope/pkg/datasource/settings"
	"github.com/emberscope/emberscope/pkg/datasource/source"
	"github.com/emberscope/emberscope/pkg/datasource/source/rangesplit"

	"github.com/emberscope/emberscope/pkg/security/redact"
)

// PluginID is the datasource's id in plugin.json.
const PluginID = "emberscope-datasource"

// Datasource is one configured instance of the datasource.
type Datasource struct {
	settings *settings.Settings
	// src is the server's client inside split, which keeps every call
	// within the server's longest query range (pkg/datasource/source/rangesplit).
	src       source.Source
	split     *rangesplit.Source
	now       func() time.Time
	serverURL string
	mux       *datasource.QueryTypeMux
	resources backend.CallResourceHandler
	logger    log.Logger
	// httpClient, when the datasource made it, is closed on Dispose.
	httpClient *http.Client
	// uid is the datasource's uid, the namespace of its live channels when
	// a request's plugin context does not say.
	uid string
	// name is the datasource's name, carried by the exemplars' links.
	name string
	// streams are the live queries QueryData answered, by channel key;
	// liveRuns keeps each one's latest run for the streams of its parts,
	// and liveGroup makes them wait for one run rather than start several.
	streams   *streamRegistry
	liveRuns  *otter.Cache[string, *liveRun]
	liveGroup singleflight.Group
	// streamTicked, when set (by tests), is called after every run of a
	// live stream with whether it sent frames.
	streamTicked func(key string, sent bool, err error)
	// source holds the source view's providers (resource_source_providers.go).
	source sourceProviders
}

// Make sure Datasource implements the SDK's handler interfaces.
var (
	_ backend.QueryDataHandler      = (*Datasource)(nil)
	_ backend.CheckHealthHandler    = (*Datasource)(nil)
	_ backend.CallResourceHandler   = (*Datasource)(nil)
	_ backend.StreamHandler         = (*Datasource)(nil)
	_ instancemgmt.InstanceDisposer = (*Datasource)(nil)
)

// NewDatasource is the instance factory given to datasource.Manage: it checks
// the settings and builds the client of the server (Pyroscope's querier API
// by default, Parca's with serverKind "parca", detected with "auto") over the
// SDK's HTTP client.
func NewDatasource(ctx context.Context, s backend.DataSourceInstanceSettings) (instancemgmt.Instance, error) {
	settings, err := settings.Load(s)
	if err != nil {
		return nil, err
	}
	opts, err := settings.HTTPClientOptions(ctx, s)
	if err != nil {
		return nil, err
	}
	src, hc, err := newSource(settings, opts)
	if err != nil {
		return nil, fmt.Errorf("create the profile server client: %w", err)
	}
	d := New(settings, src)
	d.httpClient = hc
	d.uid = s.UID
	d.name = s.Name
	return d, nil
}

// New returns a datasource reading from src with the given settings; its
// calls over a range longer than the server accepts are split into pieces
// (settings.MaxQueryLength, else the limit the server names).
func New(settings *settings.Settings, src source.Source) *Datasource {
	split := rangesplit.New(src, rangesplit.Options{MaxQueryLength: settings.MaxQueryLength})
	d := &Datasource{
		settings:  settings,
		src:       split,
		split:     split,
		now:       time.Now,
		serverURL: redact.URL(settings.URL),
		logger:    backend.Logger.With("url", settings.URL),
		streams:   newStreamRegistry(),
		// A run is fresh for half its live interval.
		liveRuns: otter.Must(&otter.Options[string, *liveRun]{
			ExpiryCalculator: otter.ExpiryWritingFunc(func(e otter.Entry[string, *liveRun]) time.Duration { return e.Value.interval / 2 }),
		}),
	}
	d.mux = d.queryMux()
	d.resources = d.resourceHandler()
	return d
}

// Dispose is called when the instance's settings change: it closes the idle
// connections of the old instance's HTTP client.
func (d *Datasource) Dispose() {
	d.streams.close()
	d.liveRuns.StopAllGoroutines()
	d.source.close()
	if d.httpClient != nil {
		d.httpClient.CloseIdleConnections()
	}
}

// QueryData answers each query of the request by its query type; the alert
// engine's requests get numbers alone (alerting.go).
func (d *Datasource) QueryData(ctx context.Context, req *backend.QueryDataRequest) (*backend.QueryDataResponse, error) {
	if fromAlert(req) {
		return d.alertQueryData(ctx, req), nil
	}
	return d.mux.QueryData(ctx, req)
}

// CallResource serves the editor's resource routes (see resources.go).
func (d *Datasource) CallResource(ctx context.Context, req *backend.CallResourceRequest, sender backend.CallResourceResponseSender) error {
	return d.resources.CallResource(ctx, req, sender)
}
