// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package dataframes

import (
	"testing"
	"time"

	"github.com/grafana/grafana-plugin-sdk-go/data"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/pkg/datasource/source"
	"github.com/emberscope/emberscope/pkg/profile/model"
)

const cpuType = "process_cpu:cpu:nanoseconds:cpu:nanoseconds"

func TestSeries(t *testing.T) {
	t0 := time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC)
	in := []source.Series{
		{
			Labels: model.Labels{{Name: "service_name", Value: "api"}, {Name: "region", Value: "eu"}},
			Points: []source.Point{{Time: t0, Value: 1.5e9}, {Time: t0.Add(15 * time.Second), Value: 2e9}},
		},
		{Points: []source.Point{{Time: t0, Value: 3}}},
	}
	frames := Series(in, cpuType, "nanoseconds")
	require.Len(t, frames, 2)

	f := frames[0]
	require.Equal(t, data.FrameTypeTimeSeriesMulti, f.Meta.Type)
	require.Len(t, f.Fields, 2)
	assert.Equal(t, "time", f.Fields[0].Name)
	assert.Equal(t, t0, f.Fields[0].At(0))
	v := f.Fields[1]
	assert.Equal(t, data.FieldTypeFloat64, v.Type())
	assert.Equal(t, data.Labels{"service_name": "api", "region": "eu"}, v.Labels)
	assert.Equal(t, `{region="eu", service_name="api"}`, v.Config.DisplayNameFromDS)
	assert.Equal(t, "ns", v.Config.Unit)
	assert.Equal(t, 2e9, v.At(1))

	// named as Grafana's Pyroscope datasource names it: the sample type
	assert.Equal(t, "cpu", frames[1].Fields[1].Config.DisplayNameFromDS)
	assert.Nil(t, frames[1].Fields[1].Labels)
	checkGolden(t, "series", frames...)
}

func TestSeriesEmpty(t *testing.T) {
	assert.Empty(t, Series(nil, cpuType, "nanoseconds"))
}
