// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package query

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestFunctionMatchIsExactOrAnchored(t *testing.T) {
	exact, err := ParseFunctionMatch("main.(*cityMap).shortestPath", "")
	require.NoError(t, err)
	require.True(t, exact.Matches("main.(*cityMap).shortestPath"), "regex characters in a name are literal")
	require.False(t, exact.Matches("main.(*cityMap).shortestPathTo"))
	require.Equal(t, "main.(*cityMap).shortestPath", exact.String())

	re, err := ParseFunctionMatch("", `encoding/json\..*`)
	require.NoError(t, err)
	require.True(t, re.Matches("encoding/json.Marshal"))
	require.False(t, re.Matches("main.encodeOrder"))
	require.Equal(t, `=~"encoding/json\\..*"`, re.String())

	part, err := ParseFunctionMatch("", "json")
	require.NoError(t, err)
	require.False(t, part.Matches("encoding/json.Marshal"), "the regex matches whole names, as Prometheus' =~")
}

func TestFunctionMatchRefusals(t *testing.T) {
	for _, tc := range []struct{ name, re, want string }{
		{"", "", "set function (a function's exact name) or functionRegex"},
		{"  ", " ", "set function (a function's exact name) or functionRegex"},
		{"a", "b", "set function or functionRegex, not both"},
		{"", "(", `functionRegex: "(" is not a valid regular expression`},
	} {
		_, err := ParseFunctionMatch(tc.name, tc.re)
		require.ErrorContains(t, err, tc.want)
	}
}
