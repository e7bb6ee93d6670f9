// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package parca

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	"github.com/emberscope/emberscope/pkg/datasource/source"
	"github.com/emberscope/emberscope/pkg/profile/model"
)

// Options configure a Client.
type Options struct {
	// URL is the Parca server's base URL, such as http://parca:7070. A path
	// prefix (a reverse proxy's) is kept; /api/... is appended to it.
	URL string
	// HTTPClient sends the requests; it carries authentication and timeouts.
	// nil means a client with DefaultTimeout.
	HTTPClient *http.Client
}

// DefaultTimeout bounds each request when Options.HTTPClient is nil.
const DefaultTimeout = 60 * time.Second

// maxBody bounds the size of an answer the client reads.
const maxBody = 512 << 20

// Client is a source.Source over Parca's REST API. It is safe for
// concurrent use.
type Client struct {
	base  *url.URL
	http  *http.Client
	types typeIndex
}

var _ source.Source = (*Client)(nil)

// New returns a client of the Parca server at opts.URL. It sends nothing:
// a wrong URL shows at the first call.
func New(opts Options) (*Client, error) {
	u, err := model.ParseServerURL(opts.URL)
	if err != nil {
		return nil, fmt.Errorf("parca: %w", err)
	}
	hc := opts.HTTPClient
	if hc == nil {
		hc = &http.Client{Timeout: DefaultTimeout}
	}
	c := &Client{base: u, http: hc}
	c.types.fetch = c.fetchTypes
	return c, nil
}

// URL returns the server's base URL (credentials in it redacted).
func (c *Client) URL() string { return c.base.Redacted() }

// get sends GET path?query and decodes a 200 JSON answer into out. Any
// other status becomes a *model.Error caused by an *APIError.
func (c *Client) get(ctx context.Context, path string, query url.Values, out any) error {
	u := *c.base
	u.Path += path
	u.RawQuery = query.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return fmt.Errorf("parca: building GET %s: %w", path, err)
	}
	req.Header.Set("Accept", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		return transportError(c.base.Redacted(), http.MethodGet, path, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBody+1))
	if err != nil {
		return &model.Error{Kind: model.KindServer, Msg: fmt.Sprintf("parca: reading the answer of GET %s: %v", path, err), Err: err}
	}
	if resp.StatusCode != http.StatusOK {
		return newAPIError(http.MethodGet, path, resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	if len(body) > maxBody {
		return &model.Error{Kind: model.KindServer, Msg: fmt.Sprintf("parca: the answer of GET %s is larger than %d MiB", path, maxBody>>20)}
	}
	return decodeJSON("GET "+path, body, out)
}

// formatTime writes a time as Parca reads it: RFC 3339 in UTC.
func formatTime(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// checkRange reports a time range Parca would refuse, in our words.
func checkRange(r source.TimeRange) error {
	switch {
	case r.From.IsZero() || r.To.IsZero():
		return fmt.Errorf("parca: a time range needs both a start and an end")
	case !r.From.Before(r.To):
		return fmt.Errorf("parca: time range start %s is not before end %s", formatTime(r.From), formatTime(r.To))
	}
	return nil
}

// addRange sets start and end (named with prefix, such as "merge.") when the
// range is set.
func addRange(q url.Values, prefix string, r source.TimeRange) {
	if r.From.IsZero() || r.To.IsZero() {
		return
	}
	q.Set(prefix+"start", formatTime(r.From))
	q.Set(prefix+"end", formatTime(r.To))
}
