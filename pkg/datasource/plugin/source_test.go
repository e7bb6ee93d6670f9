// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/grafana/grafana-plugin-sdk-go/backend"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/pkg/datasource/plugin/plugintest"
)

// TestServerKindAuto detects that the embedded store speaks Pyroscope's API
// and answers through the Pyroscope client.
func TestServerKindAuto(t *testing.T) {
	fx := storeFixture(t)
	inst, err := NewDatasource(context.Background(), backend.DataSourceInstanceSettings{
		URL: fx.url, JSONData: json.RawMessage(`{"serverKind":"auto"}`),
	})
	require.NoError(t, err)
	d := inst.(*Datasource)
	total := plugintest.Pprof(t, plugintest.CPUFile, "cpu").Total
	rows := flameRows(t, ok(t, run(t, d, q("A", "profile", `{"profileTypeId":"`+cpuType+`","labelSelector":"{service_name=\"shop\"}"}`)), "A")[0])
	require.Equal(t, total, rows[0].Value)

	health, err := d.CheckHealth(context.Background(), &backend.CheckHealthRequest{})
	require.NoError(t, err)
	require.Equal(t, backend.HealthStatusOk, health.Status, health.Message)
	require.Contains(t, health.Message, cpuType)
}

func TestBadSettingsFailTheInstance(t *testing.T) {
	_, err := NewDatasource(context.Background(), backend.DataSourceInstanceSettings{URL: "localhost:4040"})
	require.EqualError(t, err, `settings: url: "localhost:4040" must start with http:// or https://`)
}
