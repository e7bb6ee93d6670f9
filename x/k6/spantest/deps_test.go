// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package spantest

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestK6ModuleNeedsNoGRPCNorPprof lists the module graph of x/k6 as a user's
// build sees it (`go list -m all` in x/k6) and fails if gRPC, google/pprof or
// otel-profiling-go are in it: HTTP-only services must not pull them.
func TestK6ModuleNeedsNoGRPCNorPprof(t *testing.T) {
	cmd := exec.Command("go", "list", "-m", "all")
	cmd.Dir = ".."
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=readonly")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list -m all in x/k6: %v\n%s", err, out)
	}
	modules := strings.Fields(string(out))
	if len(modules) == 0 || modules[0] != "github.com/emberscope/emberscope/x/k6" {
		t.Fatalf("go list -m all in x/k6 did not list x/k6 first:\n%s", out)
	}
	for _, m := range modules {
		for _, banned := range []string{"google.golang.org/grpc", "github.com/google/pprof", "github.com/grafana/otel-profiling-go"} {
			if m == banned {
				t.Errorf("x/k6's module graph holds %s:\n%s", banned, out)
			}
		}
	}
}

// TestK6ModuleGoDirective keeps x/k6 and x/k6/grpc buildable by services on
// pyroscope-go v1.5.0's Go floor (go 1.25.0).
func TestK6ModuleGoDirective(t *testing.T) {
	for _, dir := range []string{"..", "../grpc"} {
		cmd := exec.Command("go", "mod", "edit", "-json")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOWORK=off")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go mod edit -json in %s: %v", dir, err)
		}
		if !strings.Contains(string(out), `"Go": "1.25.0"`) {
			t.Errorf("the go.mod in %s does not say go 1.25.0:\n%s", dir, out)
		}
	}
}
