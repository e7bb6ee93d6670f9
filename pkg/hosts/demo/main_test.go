// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package demo

import (
	"fmt"
	"os"
	"testing"
)

// serviceProcessEnv makes the test binary act as the demo's service
// process, as `emberscope demo -service` does.
const serviceProcessEnv = "EMBERSCOPE_DEMO_TEST_SERVICE_PROCESS"

func TestMain(m *testing.M) {
	if os.Getenv(serviceProcessEnv) == "1" {
		if err := ServiceMain(os.Args[1:], os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	// Service processes the tests start are this binary in service mode.
	if err := os.Setenv(serviceProcessEnv, "1"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(m.Run())
}
