// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package demo

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// ServiceOptions configure the demo service process.
type ServiceOptions struct {
	// Listen is the service's address (default 127.0.0.1:0).
	Listen string
	// PushURL is the profile server the SDK pushes to (required).
	PushURL string
	// UploadRate is how often the SDK pushes (default DefaultUploadRate).
	UploadRate time.Duration
	// Region is the profiles' region tag (default eu-west).
	Region string
	// Logger receives errors (default: warnings to os.Stderr).
	Logger *slog.Logger
}

// firstFlushAfter is when the service sends its first profiles when the
// upload period is longer.
const firstFlushAfter = 3 * time.Second

// listeningPrefix starts the line a service process prints once it serves;
// the demo reads the address from it.
const listeningPrefix = "demo service listening on "

// RunService serves the demo service, profiled by the Pyroscope Go SDK,
// until ctx ends; then it flushes the profiler (the last profiles reach the
// server) and shuts the server down. listening is called with the service's
// URL once it accepts connections.
func RunService(ctx context.Context, opts ServiceOptions, listening func(url string)) error {
	if opts.PushURL == "" {
		return errors.New("demo service: a push URL is required")
	}
	if opts.Listen == "" {
		opts.Listen = "127.0.0.1:0"
	}
	if opts.UploadRate <= 0 {
		opts.UploadRate = DefaultUploadRate
	}
	if opts.Region == "" {
		opts.Region = "eu-west"
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	}
	lis, err := net.Listen("tcp", opts.Listen)
	if err != nil {
		return fmt.Errorf("demo service: listening on %s: %w", opts.Listen, err)
	}
	profiler, err := startProfiler(opts.PushURL, opts.UploadRate, serviceTags(opts.Region), opts.Logger)
	if err != nil {
		_ = lis.Close()
		return err
	}
	srv := &http.Server{
		Handler:           NewService().Handler(),
		ReadHeaderTimeout: 10 * time.Second,
		ErrorLog:          slog.NewLogLogger(opts.Logger.Handler(), slog.LevelWarn),
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(lis) }()
	if listening != nil {
		listening("http://" + lis.Addr().String())
	}

	// The SDK's first upload comes one upload period after it starts, and
	// sometimes two (its CPU collector skips a tick that fires a hair
	// early). One early flush puts the first profiles in the store within
	// a few seconds instead.
	early := time.NewTimer(min(firstFlushAfter, opts.UploadRate))
	defer early.Stop()
wait:
	for {
		select {
		case <-ctx.Done():
			break wait
		case err = <-served: // the listener failed
			break wait
		case <-early.C:
			profiler.Flush(false)
		}
	}
	// Stop taking requests first, so the last profiles hold everything
	// served, then flush them before the SDK stops.
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	errs := []error{err, srv.Shutdown(shutdownCtx)}
	profiler.Flush(true)
	errs = append(errs, profiler.Stop())
	if err := errors.Join(errs...); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("demo service: %w", err)
	}
	return nil
}

// ServiceMain is the demo service process's main: it parses its flags
// (-listen, -push-url, -upload-rate, -region), prints
// "demo service listening on <url>" to stdout once serving, and runs until
// SIGINT, SIGTERM or the end of stdin (the demo closes it to stop the
// service, and it closes by itself when the demo dies).
func ServiceMain(args []string, stdin io.Reader, stdout io.Writer) error {
	fs := flag.NewFlagSet("demo service", flag.ContinueOnError)
	var o ServiceOptions
	fs.StringVar(&o.Listen, "listen", "127.0.0.1:0", "service address")
	fs.StringVar(&o.PushURL, "push-url", "", "profile server to push to")
	fs.DurationVar(&o.UploadRate, "upload-rate", DefaultUploadRate, "how often the profiler pushes")
	fs.StringVar(&o.Region, "region", "eu-west", "region tag of the profiles")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("demo service: unexpected argument %q", fs.Arg(0))
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		_, _ = io.Copy(io.Discard, stdin)
		cancel()
	}()
	return RunService(ctx, o, func(url string) { fmt.Fprintln(stdout, listeningPrefix+url) })
}

// serviceTags are the profiles' tags: the region and the source labels.
func serviceTags(region string) map[string]string {
	tags := sourceLabels()
	tags["region"] = region
	return tags
}
