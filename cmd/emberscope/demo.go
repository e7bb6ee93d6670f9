// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"

	sdklog "github.com/grafana/grafana-plugin-sdk-go/backend/log"

	"github.com/emberscope/emberscope/pkg/hosts/demo"
)

// runDemo runs the embedded store, the instrumented ride-share service, a
// k6-style load generator and the playground until Ctrl-C or -duration.
func runDemo(args []string) error {
	if len(args) > 0 && args[0] == "-service" {
		// The demo's service process (started by the demo itself).
		return demo.ServiceMain(args[1:], os.Stdin, os.Stdout)
	}
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: emberscope demo [flags]\n\n"+
			"Runs on loopback the embedded profile store, a ride-share service profiled\n"+
			"with the Pyroscope Go SDK, a load generator sending k6 baggage, and the\n"+
			"playground; prints the address to open once the first profile has landed.\n\n")
		fs.PrintDefaults()
	}
	var o demo.Options
	fs.StringVar(&o.Listen, "listen", "127.0.0.1:3000", "playground address")
	fs.StringVar(&o.StoreListen, "store-listen", "127.0.0.1:4040", "embedded store address")
	fs.StringVar(&o.ServiceListen, "service-listen", "127.0.0.1:0", "demo service address (port 0: any free port)")
	fs.StringVar(&o.DataDir, "data", "", "store data directory (default: a temporary directory, removed on exit)")
	fs.StringVar(&o.PushURL, "push-url", "", "push profiles to this Pyroscope server instead of starting the embedded store")
	fs.BoolVar(&o.NoPlayground, "no-playground", false, "do not start the playground")
	fs.BoolVar(&o.Prometheus, "prometheus", true, "run the prometheus on the PATH (Debian's package) and send the recording rules' series to it; without it they are counters on the store's /metrics")
	fs.StringVar(&o.StaticDir, "static-dir", "", "directory of a built playground page to serve instead of the one in the binary")
	fs.DurationVar(&o.UploadRate, "upload-rate", demo.DefaultUploadRate, "how often the profiler pushes profiles")
	fs.IntVar(&o.Workers, "workers", 2, "virtual users of the load generator")
	fs.DurationVar(&o.Pause, "pause", demo.DefaultPause, "think time of each virtual user between requests")
	fs.StringVar(&o.Region, "region", "eu-west", "region tag of the profiles")
	fs.Var((*sourceRootsFlag)(&o.SourceRoots), "source-root", sourceRootUsage+"; the demo's own code is always one")
	duration := fs.Duration("duration", 0, "stop after this long (0: run until Ctrl-C)")
	verbose := fs.Bool("v", false, "log every playground request")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q (flags only; see -h)", fs.Arg(0))
	}
	switch {
	case *duration < 0:
		return fmt.Errorf("-duration %s: must be 0 (until Ctrl-C) or positive", *duration)
	case o.UploadRate <= 0:
		return fmt.Errorf("-upload-rate %s: must be positive", o.UploadRate)
	case o.Workers <= 0:
		return fmt.Errorf("-workers %d: must be positive", o.Workers)
	case o.Pause <= 0:
		return fmt.Errorf("-pause %s: must be positive", o.Pause)
	}
	level := slog.LevelWarn
	if *verbose {
		level = slog.LevelInfo
	} else {
		// The plugin SDK logs debug lines (e.g. about build info a
		// development build lacks) that mean nothing to a demo user.
		sdklog.DefaultLogger = sdklog.NewWithLevel(sdklog.Warn)
	}
	o.Logger = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))

	ctx, stop := signalContext()
	defer stop()
	return demo.Run(ctx, o, *duration)
}
