// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package demo

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// The demo's profiles carry the folder its code was built from, and the
// playground reads that folder: the source view finds the demo's own files.
func TestDemoPointsTheSourceViewAtItsOwnCode(t *testing.T) {
	root := SourceRoot()
	require.NotEmpty(t, root)
	_, err := os.Stat(filepath.Join(root, "pkg", "hosts", "demo", "city.go"))
	require.NoError(t, err)

	tags := serviceTags("eu-west")
	require.Equal(t, "eu-west", tags["region"])
	require.Equal(t, filepath.ToSlash(root), tags[labelRootPath])
	require.Equal(t, []string{"/extra", root}, demoSourceRoots([]string{"/extra"}))
}
