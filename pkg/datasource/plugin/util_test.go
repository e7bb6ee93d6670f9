// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"os"
	"strconv"
	"testing"
)

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// fixtureDirs are the data directories of package-wide fixtures, removed
// after every test has run.
var fixtureDirs []string

func osMkdirTemp() (string, error) {
	dir, err := os.MkdirTemp("", "emberscope-plugin-test-")
	if err == nil {
		fixtureDirs = append(fixtureDirs, dir)
	}
	return dir, err
}

func TestMain(m *testing.M) {
	code := m.Run()
	for _, d := range fixtureDirs {
		_ = os.RemoveAll(d)
	}
	os.Exit(code)
}
