// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"testing"
	"time"

	"github.com/grafana/grafana-plugin-sdk-go/backend"
	"github.com/grafana/grafana-plugin-sdk-go/data"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/internal/fixtures"
	"github.com/emberscope/emberscope/internal/pproforacle"
	"github.com/emberscope/emberscope/pkg/datasource/plugin/plugintest"
)

// TestBothFollowsTheDraggedRange: a drag over the series in Explore sets the
// query's time range; the flamegraph of a "both" query then covers that range
// only. Two real CPU profiles of one service two minutes apart (labeled,
// 3.77 s, then bench-sort, 23.52 s, as pprof totals them): over both, the root
// is their sum; over the second one's minute, it is the second alone.
func TestBothFollowsTheDraggedRange(t *testing.T) {
	labeled := fixtures.Read(t, labeledProfile)
	sorted := fixtures.Read(t, sortProfile)
	url := plugintest.Store(t)
	plugintest.Ingest(t, url, "drag", labeled)
	plugintest.Ingest(t, url, "drag", sorted)
	lp, sp := plugintest.Parse(t, labeled), plugintest.Parse(t, sorted)
	totalL := pproforacle.Top(t, fixtures.Path(t, labeledProfile), pproforacle.Options{SampleType: "cpu"}).Total
	totalS := pproforacle.Top(t, fixtures.Path(t, sortProfile), pproforacle.Options{SampleType: "cpu"}).Total
	require.Equal(t, []int64{3_770_000_000, 23_520_000_000}, []int64{totalL, totalS}, "pprof's totals")
	atL, atS := time.Unix(0, lp.TimeNanos), time.Unix(0, sp.TimeNanos)
	require.True(t, atS.Sub(atL) >= time.Minute, "the profiles are a minute or more apart")
	d := newDS(t, url)

	root := func(from, to time.Time) (int64, float64) {
		dq := q("A", "both", `{"profileTypeId":"`+cpuType+`","labelSelector":"{service_name=\"drag\"}"}`)
		dq.TimeRange = backend.TimeRange{From: from, To: to}
		frames := ok(t, run(t, d, dq), "A")
		flame := frameOf(frames, data.VisTypeFlameGraph)
		require.NotNil(t, flame)
		value, _ := flame.FieldByName("value")
		sum, _, _ := seriesSum(t, frames)
		return value.At(0).(int64), sum
	}
	whole, series := root(atL.Add(-time.Minute), atS.Add(time.Minute))
	require.Equal(t, totalL+totalS, whole)
	require.Equal(t, float64(totalL+totalS), series)
	dragged, series := root(atS.Add(-30*time.Second), atS.Add(30*time.Second))
	require.Equal(t, totalS, dragged, "the flamegraph covers the dragged range only")
	require.Equal(t, float64(totalS), series)
}
