// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package parcatest

import (
	"io"
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLoadAndReplay(t *testing.T) {
	srv := NewServer(t, DefaultDir)
	assert.Len(t, srv.exchanges, 44)

	get := func(path string, q url.Values) (int, string, string) {
		resp, err := srv.Client().Get(srv.URL + path + "?" + q.Encode())
		require.NoError(t, err)
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		return resp.StatusCode, resp.Header.Get("Content-Type"), string(b)
	}

	// snake_case and lowerCamel names match alike; parameter order is free.
	q := url.Values{
		"end": {"2026-11-29T08:50:00Z"}, "start": {"2026-11-29T08:36:00Z"},
		"profileType": {"process_cpu:cpu:nanoseconds:cpu:nanoseconds:delta"},
	}
	status, ct, body := get("/api/profiles/labels/job/values", q)
	assert.Equal(t, http.StatusOK, status)
	assert.Equal(t, "application/json", ct)
	assert.JSONEq(t, `{"labelValues":["demo-sort"],"warnings":[]}`, body)

	// The recorded text/plain 404 is replayed as such.
	status, ct, body = get("/api/profiles/query_range", url.Values{
		"query": {"nope:cpu:nanoseconds:cpu:nanoseconds:delta{}"},
		"start": {"2026-11-29T07:50:00Z"}, "end": {"2026-11-29T08:50:00Z"}, "step": {"60s"},
	})
	assert.Equal(t, http.StatusNotFound, status)
	assert.Equal(t, "text/plain; charset=utf-8", ct)
	assert.Equal(t, "404 page not found\n", body)
	assert.Empty(t, srv.Unmatched())

	// Anything not recorded is a 404 and is listed.
	q.Set("start", "2026-11-29T08:37:00Z")
	status, _, _ = get("/api/profiles/labels/job/values", q)
	assert.Equal(t, http.StatusNotFound, status)
	require.Len(t, srv.Unmatched(), 1)
	assert.Contains(t, srv.Unmatched()[0], "GET /api/profiles/labels/job/values?")
}

func TestNormalizeQuery(t *testing.T) {
	assert.Equal(t, url.Values{"profileType": {"a"}, "merge.reportType": {"b"}, "sumBy": {"x", "y"}},
		NormalizeQuery(url.Values{"profile_type": {"a"}, "merge.report_type": {"b"}, "sum_by": {"x", "y"}}))
}
