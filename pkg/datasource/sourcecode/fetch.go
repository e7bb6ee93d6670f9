// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package sourcecode

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// DefaultTimeout bounds one call to GitHub or a module proxy.
const DefaultTimeout = 30 * time.Second

// baseURL is a configured base URL that every fetched URL must lie under.
type baseURL struct{ u *url.URL }

func parseBase(field, raw string) (baseURL, error) {
	u, err := url.Parse(strings.TrimRight(strings.TrimSpace(raw), "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return baseURL{}, fmt.Errorf("%s: %q is not an http(s) base URL without credentials, query or fragment", field, raw)
	}
	return baseURL{u: u}, nil
}

func (b baseURL) String() string { return b.u.String() }

// join appends escaped path elements to the base.
func (b baseURL) join(elems ...string) *url.URL {
	u := *b.u
	esc := make([]string, len(elems))
	for i, e := range elems {
		esc[i] = url.PathEscape(e)
	}
	u.RawPath = strings.TrimRight(u.EscapedPath(), "/") + "/" + strings.Join(esc, "/")
	u.Path, _ = url.PathUnescape(u.RawPath)
	return &u
}

// under tells whether u lies under the base (same scheme and host, path below).
func (b baseURL) under(u *url.URL) bool {
	return u.Scheme == b.u.Scheme && u.Host == b.u.Host && strings.HasPrefix(u.EscapedPath(), b.u.EscapedPath())
}

// newHTTPClient returns a client that follows a redirect only under base,
// so that no answer leads a request (and its token) anywhere else.
func newHTTPClient(base baseURL, timeout time.Duration) *http.Client {
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	return &http.Client{
		Timeout: timeout,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if !base.under(req.URL) {
				return refusef("%s redirected to %s, outside the configured base %s", via[0].URL.Redacted(), req.URL.Redacted(), base)
			}
			if len(via) >= 5 {
				return errors.New("too many redirects")
			}
			return nil
		},
	}
}

// get fetches u (which must lie under base) and reads at most limit bytes
// of a 200 answer; status is the answer's status when not 200.
func get(ctx context.Context, hc *http.Client, base baseURL, u *url.URL, header http.Header, limit int64) (body []byte, status int, err error) {
	if !base.under(u) {
		return nil, 0, refusef("%s is outside the configured base %s", u.Redacted(), base)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, 0, err
	}
	for k, vs := range header {
		req.Header[k] = vs
	}
	resp, err := hc.Do(req)
	if err != nil {
		var r *Refusal
		if errors.As(err, &r) {
			return nil, 0, r
		}
		return nil, 0, fmt.Errorf("GET %s: %w", u.Redacted(), stripURLError(err))
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		return nil, resp.StatusCode, nil
	}
	if resp.ContentLength > limit {
		return nil, 0, refusef("%s is %d bytes, over the cap of %d bytes", u.Redacted(), resp.ContentLength, limit)
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return nil, 0, fmt.Errorf("read %s: %w", u.Redacted(), err)
	}
	if int64(len(b)) > limit {
		return nil, 0, refusef("%s is over the cap of %d bytes", u.Redacted(), limit)
	}
	return b, http.StatusOK, nil
}

func stripURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}
