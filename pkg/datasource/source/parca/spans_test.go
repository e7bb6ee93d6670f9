// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package parca

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/pkg/datasource/source"
	"github.com/emberscope/emberscope/pkg/datasource/source/parca/parcatest"
	"github.com/emberscope/emberscope/pkg/profile/model"
)

// TestSpanAndProfileIDSelectorsAreNotSupported: Parca cannot select a
// span's samples or one profile, so the client says so and asks nothing
// (a flamegraph of the whole selection would pass for the span's).
func TestSpanAndProfileIDSelectorsAreNotSupported(t *testing.T) {
	srv := parcatest.NewServer(t, parcatest.DefaultDir)
	c, err := New(Options{URL: srv.URL, HTTPClient: srv.Client()})
	require.NoError(t, err)
	rng := source.TimeRange{From: time.Date(2026, 11, 29, 7, 50, 0, 0, time.UTC), To: time.Date(2026, 11, 29, 8, 50, 0, 0, time.UTC)}
	for _, tc := range []struct {
		sel  source.Selection
		want string
	}{
		{source.Selection{SpanSelector: []string{"122b3e7d77a267a7"}}, "span selectors are not supported on Parca"},
		{source.Selection{ProfileIDs: []string{"25b7a4ca-04d8-40d8-96a0-57b70fa5208a"}}, "profile id selectors are not supported on Parca"},
	} {
		tc.sel.ProfileTypeID = "process_cpu:cpu:nanoseconds:cpu:nanoseconds"
		tc.sel.Range = rng
		_, err := c.MergeStacks(context.Background(), source.StacksRequest{Selection: tc.sel})
		require.Error(t, err)
		assert.Contains(t, err.Error(), tc.want)
		assert.Equal(t, model.KindUnimplemented, model.KindOf(err))
		_, err = c.MergeProfile(context.Background(), source.StacksRequest{Selection: tc.sel})
		assert.Contains(t, err.Error(), tc.want)
	}
	assert.Empty(t, srv.Unmatched(), "nothing was asked of Parca")
}
