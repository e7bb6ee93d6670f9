// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package labelframes_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/pkg/datasource/labelframes"
	"github.com/emberscope/emberscope/pkg/datasource/source"
)

func TestContribution(t *testing.T) {
	ctx := context.Background()
	p := realCPUProfile(t)
	src := newProfileSource(t, p)
	sel := stacksRequest(checkout).Selection
	all := sumWhere(t, p, func(map[string]string) bool { return true })

	rows, err := labelframes.Contribution(ctx, src, sel, "category", 0)
	require.NoError(t, err)
	assert.EqualValues(t, 1, src.seriesCalls.Load(), "one grouped Series call")
	require.Len(t, rows, 5, "four values and the missing row")

	var shares float64
	var prev int64 = -1
	for i, r := range rows {
		shares += r.Share
		assert.InDelta(t, float64(r.Total)/float64(all), r.Share, 1e-12)
		if r.Missing {
			assert.Equal(t, len(rows)-1, i, "missing row comes last")
			assert.Equal(t, "(no category)", r.Value)
			assert.Equal(t, sumWhere(t, p, hasLabel("category", "")), r.Total)
			continue
		}
		assert.Equal(t, sumWhere(t, p, hasLabel("category", r.Value)), r.Total, r.Value)
		if prev >= 0 {
			assert.LessOrEqual(t, r.Total, prev, "largest first")
		}
		prev = r.Total
	}
	assert.InDelta(t, 1.0, shares, 1e-9)

	limited, err := labelframes.Contribution(ctx, src, sel, "category", 2)
	require.NoError(t, err)
	require.Len(t, limited, 4, "two values, other, missing")
	assert.Equal(t, rows[0], limited[0])
	assert.Equal(t, rows[1], limited[1])
	assert.True(t, limited[2].Other)
	assert.Equal(t, "other", limited[2].Value)
	assert.Equal(t, rows[2].Total+rows[3].Total, limited[2].Total)
	assert.True(t, limited[3].Missing)
}

func TestContributionOfNarrowSelection(t *testing.T) {
	ctx := context.Background()
	p := realCPUProfile(t)
	src := newProfileSource(t, p)
	sel := stacksRequest(`{service_name="checkout",category="storage"}`).Selection

	rows, err := labelframes.Contribution(ctx, src, sel, "route", 0)
	require.NoError(t, err)
	require.Len(t, rows, 1)
	assert.Equal(t, labelframes.ValueTotal{Value: "/write", Total: sumWhere(t, p, hasLabel("category", "storage")), Share: 1}, rows[0])
}

func TestContributionErrors(t *testing.T) {
	ctx := context.Background()
	src := newProfileSource(t, realCPUProfile(t))
	sel := stacksRequest(checkout).Selection

	_, err := labelframes.Contribution(ctx, src, sel, " ", 0)
	assert.EqualError(t, err, "label contribution: empty label name")

	sel.Range = source.TimeRange{From: testRange.To, To: testRange.From}
	_, err = labelframes.Contribution(ctx, src, sel, "category", 0)
	assert.ErrorContains(t, err, "label contribution: empty time range")
}
