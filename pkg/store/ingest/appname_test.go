// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package ingest

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/pkg/store/storage"
)

func TestParseAppName(t *testing.T) {
	name, ls, err := ParseAppName(`shop{env=test, region=eu-west ,otel.scope.name=go}`)
	require.NoError(t, err)
	require.Equal(t, "shop", name)
	require.Equal(t, storage.Labels{{Name: "env", Value: "test"}, {Name: "otel_scope_name", Value: "go"}, {Name: "region", Value: "eu-west"}}, ls)

	// Values are taken literally, as Pyroscope takes them (recordings 07 and
	// 12): quotes stay part of the value.
	_, ls, err = ParseAppName(`shop{env="demo"}`)
	require.NoError(t, err)
	require.Equal(t, storage.Labels{{Name: "env", Value: `"demo"`}}, ls)

	// pyroscope-go's session id is dropped, not refused and not a label.
	name, ls, err = ParseAppName(`ride-share-app{__session_id__=2e3c6a1b9f0d4e51,region=eu}`)
	require.NoError(t, err)
	require.Equal(t, "ride-share-app", name)
	require.Equal(t, storage.Labels{{Name: "region", Value: "eu"}}, ls)

	name, ls, err = ParseAppName("a.b/c-d")
	require.NoError(t, err)
	require.Equal(t, "a.b/c-d", name)
	require.Empty(t, ls)

	for in, want := range map[string]string{
		"":                "service name is required",
		"app{":            "missing closing '}'",
		"app{env}":        `label "env" has no '='`,
		"app{__name__=x}": "reserved",
		"app{a-b=1}":      "invalid label name",
		"app{a=1,a=2}":    "given twice",
		"my app":          "not allowed in a service name",
	} {
		_, _, err := ParseAppName(in)
		require.ErrorContains(t, err, want, in)
	}
}

func TestParseUnixTime(t *testing.T) {
	for _, in := range []string{"1700000000", "1700000000000", "1700000000000000", "1700000000000000000"} {
		ts, err := ParseUnixTime(in)
		require.NoError(t, err)
		require.Equal(t, int64(1700000000), ts.Unix(), in)
	}
	_, err := ParseUnixTime("soon")
	require.ErrorContains(t, err, `invalid time "soon"`)
}
