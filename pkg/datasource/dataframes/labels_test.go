// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package dataframes

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLabelContribution(t *testing.T) {
	f, err := LabelContribution("service_name", []ValueTotal{
		{"db", 25}, {"api", 50}, {"", 0}, {"auth", 25},
	}, "nanoseconds")
	require.NoError(t, err)
	values := mustField(t, f, "service_name")
	share := mustField(t, f, "share")
	var gotV []string
	var gotS []float64
	for i := 0; i < values.Len(); i++ {
		gotV = append(gotV, values.At(i).(string))
		gotS = append(gotS, share.At(i).(float64))
	}
	assert.Equal(t, []string{"api", "auth", "db", ""}, gotV)
	assert.Equal(t, []float64{0.5, 0.25, 0.25, 0}, gotS)
	assert.Equal(t, []int64{50, 25, 25, 0}, int64s(t, f, "total"))
	assert.Equal(t, "percentunit", share.Config.Unit)
	assert.Equal(t, "ns", mustField(t, f, "total").Config.Unit)
	checkGolden(t, "labels", f)
}

func TestLabelContributionAllZero(t *testing.T) {
	f, err := LabelContribution("region", []ValueTotal{{"eu", 0}}, "count")
	require.NoError(t, err)
	assert.Equal(t, 0.0, mustField(t, f, "share").At(0))
}

func TestLabelContributionErrors(t *testing.T) {
	_, err := LabelContribution("", nil, "")
	assert.EqualError(t, err, "label contribution: empty label name")
	_, err = LabelContribution("region", []ValueTotal{{"eu", 1}, {"us", -2}}, "")
	assert.EqualError(t, err, `label contribution: region="us" (row 1) has a negative total -2`)
	_, err = LabelContribution("region", []ValueTotal{{"eu", 1}, {"eu", 2}}, "")
	assert.EqualError(t, err, `label contribution: region="eu" appears twice (rows 0 and 1)`)
}
