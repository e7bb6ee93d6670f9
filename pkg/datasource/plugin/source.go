// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"context"
	"fmt"
	"net/http"
	"sync"

	"github.com/google/pprof/profile"
	"github.com/grafana/grafana-plugin-sdk-go/backend"
	"github.com/grafana/grafana-plugin-sdk-go/backend/httpclient"

	"github.com/emberscope/emberscope/pkg/datasource/settings"
	"github.com/emberscope/emberscope/pkg/datasource/source"
	"github.com/emberscope/emberscope/pkg/datasource/source/detect"
	"github.com/emberscope/emberscope/pkg/datasource/source/parca"
	"github.com/emberscope/emberscope/pkg/datasource/source/pyroscope"
	"github.com/emberscope/emberscope/pkg/profile/flame"
	"github.com/emberscope/emberscope/pkg/profile/model"

	"github.com/emberscope/emberscope/pkg/security/redact"
)

// newSource returns the client of the server kind the settings name: the
// Pyroscope client, the Parca client, or (the default) one that detects the
// kind at its first call.
func newSource(settings *settings.Settings, opts httpclient.Options) (source.Source, *http.Client, error) {
	hc, err := httpclient.New(opts)
	if err != nil {
		return nil, nil, fmt.Errorf("create the HTTP client for %s: %w", redact.URL(settings.URL), err)
	}
	switch settings.ServerKind {
	case model.ServerParca:
		c, err := parca.New(parca.Options{URL: settings.URL, HTTPClient: hc})
		return c, hc, err
	case model.ServerAuto:
		return &detectingSource{url: settings.URL, hc: hc}, hc, nil
	default:
		return pyroscope.NewWithHTTPClient(settings.URL, hc), hc, nil
	}
}

// detectingSource finds out at its first call whether the server speaks
// Pyroscope's or Parca's API, then forwards every call to that client. A
// failed detection is retried at the next call.
type detectingSource struct {
	url string
	hc  *http.Client

	mu  sync.Mutex
	src source.Source
}

func (d *detectingSource) get(ctx context.Context) (source.Source, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.src != nil {
		return d.src, nil
	}
	kind, err := detect.Detect(ctx, d.url, d.hc)
	if err != nil {
		// Nothing recognisable answered (down, refusing credentials, not a
		// profile server): let the Pyroscope client make this call so the
		// user reads its precise error, and detect again at the next call.
		backend.Logger.Debug("could not detect the profile server's kind", "url", d.url, "error", err)
		return pyroscope.NewWithHTTPClient(d.url, d.hc), nil
	}
	switch kind {
	case model.ServerParca:
		c, err := parca.New(parca.Options{URL: d.url, HTTPClient: d.hc})
		if err != nil {
			return nil, err
		}
		d.src = c
	default:
		d.src = pyroscope.NewWithHTTPClient(d.url, d.hc)
	}
	backend.Logger.Info("detected the profile server's kind", "url", d.url, "kind", string(kind))
	return d.src, nil
}

func (d *detectingSource) ProfileTypes(ctx context.Context, r source.TimeRange) ([]model.ProfileType, error) {
	s, err := d.get(ctx)
	if err != nil {
		return nil, err
	}
	return s.ProfileTypes(ctx, r)
}

func (d *detectingSource) LabelNames(ctx context.Context, r source.LabelsRequest) ([]string, error) {
	s, err := d.get(ctx)
	if err != nil {
		return nil, err
	}
	return s.LabelNames(ctx, r)
}

func (d *detectingSource) LabelValues(ctx context.Context, name string, r source.LabelsRequest) ([]string, error) {
	s, err := d.get(ctx)
	if err != nil {
		return nil, err
	}
	return s.LabelValues(ctx, name, r)
}

func (d *detectingSource) MergeStacks(ctx context.Context, r source.StacksRequest) (*flame.Tree, error) {
	s, err := d.get(ctx)
	if err != nil {
		return nil, err
	}
	return s.MergeStacks(ctx, r)
}

func (d *detectingSource) Series(ctx context.Context, r source.SeriesRequest) ([]source.Series, error) {
	s, err := d.get(ctx)
	if err != nil {
		return nil, err
	}
	return s.Series(ctx, r)
}

func (d *detectingSource) MergeProfile(ctx context.Context, r source.StacksRequest) (*profile.Profile, error) {
	s, err := d.get(ctx)
	if err != nil {
		return nil, err
	}
	return s.MergeProfile(ctx, r)
}

// SelectsCallSite tells whether the detected client's server selects a call
// site itself; false until detection succeeded (the datasource then filters).
func (d *detectingSource) SelectsCallSite() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.src != nil && source.SelectsCallSite(d.src)
}

// Heatmap forwards to the detected client; it answers source.ErrNoHeatmap
// when that client has no heatmap API.
func (d *detectingSource) Heatmap(ctx context.Context, r source.HeatmapRequest) ([]source.HeatmapSlot, error) {
	s, err := d.get(ctx)
	if err != nil {
		return nil, err
	}
	return source.Heatmap(ctx, s, r)
}
