// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package query

import (
	"testing"

	"github.com/prometheus/prometheus/model/labels"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseSelector(t *testing.T) {
	ms, err := ParseSelector("")
	require.NoError(t, err)
	assert.Empty(t, ms)

	ms, err = ParseSelector(`{z="1", a=~"x.*", a="y"}`)
	require.NoError(t, err)
	assert.Equal(t, `{a="y",a=~"x.*",z="1"}`, FormatSelector(ms))
	assert.True(t, ms[1].Matches("xyz"))
	assert.False(t, ms[1].Matches("yx"), "regex matchers are anchored as in Prometheus")

	_, err = ParseSelector(`{a=~"("}`)
	require.Error(t, err)
	assert.Equal(t, "1:2: in label matchers: error parsing regexp: missing closing ): `(`", err.Error())
}

func TestFormatSelectorRoundTrips(t *testing.T) {
	for _, in := range []string{`{}`, `{a="b\"c"}`, `{"k6.test"!="x",b!~"\n|y"}`, `{a="é"}`} {
		ms, err := ParseSelector(in)
		require.NoError(t, err, in)
		again, err := ParseSelector(FormatSelector(ms))
		require.NoError(t, err)
		assert.Equal(t, FormatSelector(ms), FormatSelector(again))
	}
}

func TestWithMatchers(t *testing.T) {
	s, err := WithMatchers(`{service_name="api"}`,
		labels.MustNewMatcher(labels.MatchEqual, "category", "obs :: metrics"),
		labels.MustNewMatcher(labels.MatchEqual, "route", ""))
	require.NoError(t, err)
	assert.Equal(t, `{category="obs :: metrics",route="",service_name="api"}`, s)

	_, err = WithMatchers(`{service_name=}`)
	require.Error(t, err)
}
