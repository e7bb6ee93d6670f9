// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/grafana/grafana-plugin-sdk-go/backend"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/pkg/datasource/plugin/plugintest"
)

func health(t *testing.T, d *Datasource) *backend.CheckHealthResult {
	t.Helper()
	res, err := d.CheckHealth(context.Background(), &backend.CheckHealthRequest{})
	require.NoError(t, err)
	return res
}

func TestHealthSaysWhatIsWrong(t *testing.T) {
	// A store without profiles.
	empty := health(t, newDS(t, plugintest.Store(t)))
	require.Equal(t, backend.HealthStatusError, empty.Status)
	require.Contains(t, empty.Message, "holds no profiles from the last 7 days")

	// An authenticating proxy that refuses the datasource's token.
	// The health check may send several requests at once (detection probes
	// both APIs), so the handler records every Authorization it sees under a lock.
	var (
		authMu   sync.Mutex
		gotAuths []string
	)
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		authMu.Lock()
		gotAuths = append(gotAuths, r.Header.Get("Authorization"))
		authMu.Unlock()
		http.Error(w, "bad token", http.StatusUnauthorized)
	}))
	defer proxy.Close()
	inst, err := NewDatasource(context.Background(), backend.DataSourceInstanceSettings{
		URL: proxy.URL, JSONData: json.RawMessage(`{"authMethod":"bearer","tenantId":"t1"}`),
		DecryptedSecureJSONData: map[string]string{"bearerToken": "wrong"},
	})
	require.NoError(t, err)
	refused := health(t, inst.(*Datasource))
	require.Equal(t, backend.HealthStatusError, refused.Status)
	require.Contains(t, refused.Message, "profile server at "+proxy.URL+" refused the credentials")
	authMu.Lock()
	seen := append([]string(nil), gotAuths...)
	authMu.Unlock()
	require.NotEmpty(t, seen, "the proxy was asked")
	for _, a := range seen {
		require.Equal(t, "Bearer wrong", a, "every request carries the token")
	}

	// A store with profiles.
	fx := storeFixture(t)
	good := health(t, newDS(t, fx.url))
	require.Equal(t, backend.HealthStatusOk, good.Status)
	require.Contains(t, good.Message, "Connected to the profile server at "+fx.url)
}
