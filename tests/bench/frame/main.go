// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Command frame prints the flame graph frame of a checked-in pprof file as Grafana's data frame
// JSON, made by the plugin's own conversion (pprofconv, frames), for the browser benchmark's
// real-profile case: go run ./tests/bench/frame internal/fixtures/profiles/virtual.cpu.pb.gz
package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/google/pprof/profile"

	"github.com/emberscope/emberscope/pkg/datasource/dataframes"
	"github.com/emberscope/emberscope/pkg/profile/pprofconv"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "frame:", err)
		os.Exit(1)
	}
}

func run() error {
	if len(os.Args) != 2 {
		return fmt.Errorf("usage: frame FILE.pb.gz (one pprof file, got %d arguments)", len(os.Args)-1)
	}
	f, err := os.Open(os.Args[1])
	if err != nil {
		return err
	}
	defer f.Close()
	p, err := profile.Parse(f)
	if err != nil {
		return fmt.Errorf("%s: %w", os.Args[1], err)
	}
	// the last sample type: cpu nanoseconds in a CPU profile (pprof's default)
	i := len(p.SampleType) - 1
	if i < 0 {
		return fmt.Errorf("%s: the profile has no sample types", os.Args[1])
	}
	out, err := json.Marshal(dataframes.Flamegraph(pprofconv.ToTree(p, i), dataframes.UnitFor(p.SampleType[i].Unit)))
	if err != nil {
		return err
	}
	_, err = os.Stdout.Write(out)
	return err
}
