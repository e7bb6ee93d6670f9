// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package pyroscope

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/grafana/grafana-plugin-sdk-go/backend/httpclient"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/pkg/datasource/source"
	"github.com/emberscope/emberscope/pkg/profile/model"
)

func closedPortURL(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	require.NoError(t, l.Close())
	return "http://" + addr
}

func TestUnreachableServer(t *testing.T) {
	url := closedPortURL(t)
	c, err := New(url, httpclient.Options{})
	require.NoError(t, err)
	_, err = c.ProfileTypes(context.Background(), source.TimeRange{})
	require.Error(t, err)
	require.Equal(t, "cannot reach profile server at "+url+": connection refused", err.Error())
	require.NotZero(t, model.KindOf(err))
	var e *model.Error
	require.ErrorAs(t, err, &e)
	require.Equal(t, model.KindUnreachable, e.Kind)
	require.Equal(t, http.StatusBadGateway, e.HTTPStatus())
}

func TestAuthAndTenantHeaders(t *testing.T) {
	var gotTenant, gotUser, gotPass string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotTenant = r.Header.Get("X-Scope-OrgID")
		gotUser, gotPass, _ = r.BasicAuth()
		http.Error(w, "invalid credentials", http.StatusUnauthorized)
	}))
	defer srv.Close()
	c, err := New(srv.URL, httpclient.Options{
		BasicAuth: &httpclient.BasicAuthOptions{User: "u", Password: "p"},
		Header:    http.Header{"X-Scope-Orgid": []string{"team-a"}},
	})
	require.NoError(t, err)
	_, err = c.LabelNames(context.Background(), source.LabelsRequest{})
	require.Error(t, err)
	require.Contains(t, err.Error(), "profile server at "+srv.URL+" refused the credentials (list label names)")
	require.Equal(t, "team-a", gotTenant)
	require.Equal(t, "u", gotUser)
	require.Equal(t, "p", gotPass)
	var e *model.Error
	require.ErrorAs(t, err, &e)
	require.Equal(t, model.KindAuth, e.Kind)
	require.NotZero(t, model.KindOf(err))
}

func TestNotAPyroscopeServer(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	defer srv.Close()
	c := NewWithHTTPClient(srv.URL, srv.Client())
	_, err := c.MergeStacks(context.Background(), source.StacksRequest{})
	require.ErrorContains(t, err, "profile server at "+srv.URL+" does not answer the querier API (merge stacks)")
}

func TestTimeout(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	to := httpclient.DefaultTimeoutOptions
	to.Timeout = 50 * time.Millisecond
	c, err := New(srv.URL, httpclient.Options{Timeouts: &to})
	require.NoError(t, err)
	_, err = c.Series(context.Background(), source.SeriesRequest{})
	require.ErrorContains(t, err, "profile server at "+srv.URL+" did not answer in time (select series)")
	var e *model.Error
	require.ErrorAs(t, err, &e)
	require.Equal(t, http.StatusGatewayTimeout, e.HTTPStatus())
}
