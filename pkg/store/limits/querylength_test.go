// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package limits_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/internal/fixtures"
	"github.com/emberscope/emberscope/internal/pyroscopereplay"
	"github.com/emberscope/emberscope/pkg/store"
	"github.com/emberscope/emberscope/pkg/store/limits"
)

func limitedStore(t *testing.T, maxQueryLength time.Duration) *httptest.Server {
	t.Helper()
	lim := limits.Backfill()
	lim.MaxQueryLength = maxQueryLength
	st, err := store.Open(store.Options{Dir: t.TempDir(), Limits: &lim})
	require.NoError(t, err)
	srv := httptest.NewServer(st.Handler())
	t.Cleanup(func() {
		srv.Close()
		require.NoError(t, st.Close())
	})
	return srv
}

func post(t *testing.T, srv *httptest.Server, ex *pyroscopereplay.Exchange) (int, []byte) {
	t.Helper()
	resp, err := srv.Client().Post(srv.URL+ex.Path, "application/json", bytes.NewReader(ex.Body))
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, body
}

var tooLong = regexp.MustCompile(`^the query time range exceeds the limit \(max_query_length, actual: (\S+), limit: (\S+)\)$`)

// TestMaxQueryLengthAnswersAsPyroscope sends the requests recorded against
// Pyroscope v2.2.1 with its default limits (64–73) to the store with
// -max-query-length 24h: the same statuses and connect codes; the same
// message, byte for byte, where Pyroscope measured the range as sent (25 h,
// 2 days); over 7 days Pyroscope first clipped the start to its 7-day
// lookback on its own clock, so its actual is below 168 h by the recording's
// delay (under a second) where ours is the range as sent.
func TestMaxQueryLengthAnswersAsPyroscope(t *testing.T) {
	exs, err := pyroscopereplay.Load(fixtures.PyroscopeLimits())
	require.NoError(t, err)
	require.Len(t, exs, 10)
	srv := limitedStore(t, 24*time.Hour)
	for _, ex := range exs {
		t.Run(ex.Name, func(t *testing.T) {
			status, body := post(t, srv, &ex)
			require.Equal(t, ex.Status, status, "answer: %s", body)
			if ex.Status == http.StatusOK {
				if ex.RPC() == "ProfileTypes" {
					return // the store holds no profiles; 65 is about the status
				}
				want, err := pyroscopereplay.Decode(ex.RPC(), ex.Response)
				require.NoError(t, err)
				have, err := pyroscopereplay.Decode(ex.RPC(), body)
				require.NoError(t, err)
				require.Equal(t, pyroscopereplay.Canonical(want), pyroscopereplay.Canonical(have), "no data is an empty answer")
				return
			}
			want, err := ex.Error()
			require.NoError(t, err)
			var got pyroscopereplay.ErrorBody
			require.NoError(t, json.Unmarshal(body, &got))
			assert.Equal(t, "invalid_argument", want.Code)
			assert.Equal(t, want.Code, got.Code)
			wm, gm := tooLong.FindStringSubmatch(want.Message), tooLong.FindStringSubmatch(got.Message)
			require.NotNil(t, wm, "Pyroscope's message %q", want.Message)
			require.NotNil(t, gm, "our message %q", got.Message)
			assert.Equal(t, "1d", gm[2])
			assert.Equal(t, wm[2], gm[2], "limit")
			var req struct {
				Start, End int64
			}
			require.NoError(t, json.Unmarshal(ex.Body, &req))
			sent := time.Duration(req.End-req.Start) * time.Millisecond
			assert.Equal(t, sent.String(), gm[1], "our actual is the range as sent")
			pa, err := time.ParseDuration(wm[1])
			require.NoError(t, err)
			if sent <= 7*24*time.Hour-time.Minute {
				assert.Equal(t, want.Message, got.Message)
			} else {
				assert.Less(t, pa, sent)
				assert.Greater(t, pa, sent-time.Second, "Pyroscope's actual %s", wm[1])
			}
		})
	}
}

// TestMaxQueryLengthOffAnswersAWeek: with the limit off (the default) the
// same 7-day call is answered, and a limit refuses calls just over it only.
func TestMaxQueryLengthOffAnswersAWeek(t *testing.T) {
	exs, err := pyroscopereplay.Load(fixtures.PyroscopeLimits())
	require.NoError(t, err)
	week := exs[0]
	require.Equal(t, "64-profile-types-7-days", week.Name)
	status, body := post(t, limitedStore(t, 0), &week)
	require.Equal(t, http.StatusOK, status, "%s", body)
	require.Equal(t, time.Duration(0), limits.Defaults().MaxQueryLength, "off by default")

	srv := limitedStore(t, 7*24*time.Hour)
	status, _ = post(t, srv, &week)
	require.Equal(t, http.StatusOK, status, "exactly the limit is answered")
	srv = limitedStore(t, 7*24*time.Hour-time.Millisecond)
	status, body = post(t, srv, &week)
	require.Equal(t, http.StatusBadRequest, status)
	require.Contains(t, string(body), "actual: 168h0m0s, limit: 6d23h59m59s999ms")
}
