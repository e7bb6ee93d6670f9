// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"testing"

	"github.com/grafana/grafana-plugin-sdk-go/data"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/pkg/datasource/plugin/plugintest"
)

// TestBuiltinPyroscopeQueriesRunUnchanged sends queries shaped exactly as
// Grafana's built-in Pyroscope datasource saves them (its own fields such as
// spanSelector included): they run here unchanged and answer the same data.
func TestBuiltinPyroscopeQueriesRunUnchanged(t *testing.T) {
	fx := storeFixture(t)
	d := newDS(t, fx.url)
	total := plugintest.Pprof(t, plugintest.CPUFile, "cpu").Total
	builtin := func(queryType string) string {
		return `{"refId":"A","datasource":{"type":"grafana-pyroscope-datasource","uid":"pyro"},` +
			`"queryType":"` + queryType + `","profileTypeId":"` + cpuType + `",` +
			`"labelSelector":"{service_name=\"shop\"}","spanSelector":[],"groupBy":["env"],` +
			`"maxNodes":16384,"limit":10,"includeExemplars":false}`
	}
	resp := run(t, d,
		q("BOTH", "both", builtin("both")),
		q("PROFILE", "profile", builtin("profile")),
		q("METRICS", "metrics", builtin("metrics")),
	)

	fg := frameOf(ok(t, resp, "BOTH"), data.VisTypeFlameGraph)
	require.NotNil(t, fg, "both answers a flamegraph")
	require.Equal(t, total, flameRows(t, fg)[0].Value)
	require.Equal(t, total, flameRows(t, ok(t, resp, "PROFILE")[0])[0].Value)

	sum, n, perLabel := seriesSum(t, ok(t, resp, "METRICS"))
	require.Equal(t, 1, n, "groupBy env: the fixture has one env")
	require.InDelta(t, float64(total), sum, 0.5)
	require.Len(t, perLabel, 1)
}
