// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package model

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParseServerURL(t *testing.T) {
	for raw, want := range map[string]string{
		"http://localhost:4040":          "http://localhost:4040",
		" https://pyro.example/prefix/ ": "https://pyro.example/prefix",
		"http://user:pw@parca:7070":      "http://user:pw@parca:7070",
	} {
		u, err := ParseServerURL(raw)
		require.NoError(t, err, raw)
		require.Equal(t, want, u.String())
	}
	for raw, want := range map[string]string{
		"":                   ErrEmptyURL.Error(),
		"localhost:4040":     `"localhost:4040" must start with http:// or https://`,
		"ftp://x":            `"ftp://x" must start with http:// or https://`,
		"http://":            `"http://" has no host`,
		"http://x/?tenant=a": `"http://x/?tenant=a" must not have a query or fragment`,
		"http://x/#a":        `"http://x/#a" must not have a query or fragment`,
		"http://[::1":        `"http://[::1" is not a URL: parse "http://[::1": missing ']' in host`,
	} {
		_, err := ParseServerURL(raw)
		require.EqualError(t, err, want, raw)
	}
}

func TestParseServerKind(t *testing.T) {
	for s, want := range map[string]ServerKind{"": ServerAuto, "auto": ServerAuto, " Parca ": ServerParca, "pyroscope": ServerPyroscope} {
		k, err := ParseServerKind(s)
		require.NoError(t, err)
		require.Equal(t, want, k)
	}
	_, err := ParseServerKind("tempo")
	require.EqualError(t, err, `"tempo" is not one of pyroscope, parca, auto`)
}
