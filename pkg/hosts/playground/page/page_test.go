// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package page

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestPlaceholderSaysHowToBuild: a binary built before the page serves a page
// that names the command building the real one.
func TestPlaceholderSaysHowToBuild(t *testing.T) {
	require.Contains(t, string(Placeholder()), BuildCommand)
	require.True(t, strings.HasPrefix(string(Placeholder()), "<!doctype html>"))
}
