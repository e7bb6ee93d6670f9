// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Package pyroscope is the client of a server speaking Grafana Pyroscope's
// querier.v1 connect API (Pyroscope itself or the embedded store). It
// implements source.Source: every answer is converted into our own types
// (a *flame.Tree, []source.Series, a *profile.Profile) and every failure into
// an *Error that says what went wrong in words a user can act on.
package pyroscope

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"connectrpc.com/connect"
	"github.com/grafana/grafana-plugin-sdk-go/backend/httpclient"
	querierv1 "github.com/grafana/pyroscope/api/gen/proto/go/querier/v1"
	"github.com/grafana/pyroscope/api/gen/proto/go/querier/v1/querierv1connect"
	"github.com/grafana/pyroscope/api/gen/proto/go/settings/v1/settingsv1connect"
	typesv1 "github.com/grafana/pyroscope/api/gen/proto/go/types/v1"

	"github.com/emberscope/emberscope/pkg/api/noveltyv1"
	"github.com/emberscope/emberscope/pkg/datasource/source"
	"github.com/emberscope/emberscope/pkg/profile/model"

	"github.com/emberscope/emberscope/pkg/security/redact"
)

// Client reads profiles from one server. It is safe for concurrent use.
type Client struct {
	url     string
	querier querierv1connect.QuerierServiceClient
	rules   settingsv1connect.RecordingRulesServiceClient
	vectors *noveltyv1.Client
}

var _ source.Source = (*Client)(nil)

// New returns a client of the server at baseURL whose calls go through the
// SDK's HTTP client built from opts (authentication, headers such as the
// tenant's X-Scope-OrgID, timeouts, TLS, proxy, tracing).
func New(baseURL string, opts httpclient.Options) (*Client, error) {
	hc, err := httpclient.New(opts)
	if err != nil {
		return nil, fmt.Errorf("pyroscope client for %s: %w", redact.URL(baseURL), err)
	}
	return NewWithHTTPClient(baseURL, hc), nil
}

// NewWithHTTPClient returns a client that uses hc as is.
func NewWithHTTPClient(baseURL string, hc *http.Client) *Client {
	baseURL = strings.TrimRight(baseURL, "/")
	return &Client{
		url:     redact.URL(baseURL),
		querier: querierv1connect.NewQuerierServiceClient(hc, baseURL),
		rules:   settingsv1connect.NewRecordingRulesServiceClient(hc, baseURL),
		vectors: noveltyv1.NewClient(hc, baseURL),
	}
}

// URL returns the server's base URL.
func (c *Client) URL() string { return c.url }

// ProfileTypes lists the profile types that have data in r (all time when r is zero).
func (c *Client) ProfileTypes(ctx context.Context, r source.TimeRange) ([]model.ProfileType, error) {
	start, end := rangeMillis(r)
	resp, err := c.querier.ProfileTypes(ctx, connect.NewRequest(&querierv1.ProfileTypesRequest{Start: start, End: end}))
	if err != nil {
		return nil, c.wrap("list profile types", err)
	}
	out := make([]model.ProfileType, 0, len(resp.Msg.ProfileTypes))
	for _, pt := range resp.Msg.ProfileTypes {
		out = append(out, profileType(pt))
	}
	return out, nil
}

func profileType(pt *typesv1.ProfileType) model.ProfileType {
	p := model.ProfileType{
		Name:       pt.Name,
		SampleType: pt.SampleType,
		SampleUnit: pt.SampleUnit,
		PeriodType: pt.PeriodType,
		PeriodUnit: pt.PeriodUnit,
	}
	if p.Name == "" && pt.ID != "" {
		// A server that sends only the ID: read the parts from it.
		if t, err := model.ParseProfileType(pt.ID); err == nil {
			return t
		}
	}
	return p
}

// rangeMillis converts a range to the API's milliseconds; a zero end stays 0.
func rangeMillis(r source.TimeRange) (start, end int64) {
	if !r.From.IsZero() {
		start = r.From.UnixMilli()
	}
	if !r.To.IsZero() {
		end = r.To.UnixMilli()
	}
	return start, end
}
