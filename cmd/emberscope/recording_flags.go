// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"flag"
	"fmt"
	"time"

	"github.com/emberscope/emberscope/pkg/store"
	"github.com/emberscope/emberscope/pkg/store/export"
	"github.com/emberscope/emberscope/pkg/store/rules"
)

// recordingFlags registers the store's recording rule flags; the returned
// function checks them once parsed.
func recordingFlags(fs *flag.FlagSet) func() (store.RecordingOptions, error) {
	file := fs.String("recording-rules", "", "YAML or JSON file of provisioned recording rules (Pyroscope's rule fields), applied to every tenant and read-only through the API")
	interval := fs.Duration("recording-interval", 15*time.Second, "recording rules sum profiles in aligned intervals of this width, by arrival")
	url := fs.String("remote-write", "", "Prometheus remote write URL for the recorded series (such as http://127.0.0.1:9090/api/v1/write); empty: counters on /metrics")
	queue := fs.Int("remote-write-queue", 10000, "samples held while the remote write endpoint is unreachable; beyond it they are dropped and counted")
	return func() (store.RecordingOptions, error) {
		var o store.RecordingOptions
		if *interval < time.Second {
			return o, fmt.Errorf("-recording-interval %s: must be at least 1s", *interval)
		}
		if *queue < 1 {
			return o, fmt.Errorf("-remote-write-queue %d: must be at least 1", *queue)
		}
		o.Interval = *interval
		o.RemoteWrite = export.RemoteWriteOptions{URL: *url, QueueSize: *queue}
		if *file != "" {
			prov, err := rules.LoadFile(*file)
			if err != nil {
				return o, err
			}
			o.Provisioned = prov
		}
		return o, nil
	}
}
