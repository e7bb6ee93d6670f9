// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"os"
	"time"

	"github.com/emberscope/emberscope/pkg/security/httpguard"
	"github.com/emberscope/emberscope/pkg/security/redact"
	"github.com/emberscope/emberscope/pkg/store"
	"github.com/emberscope/emberscope/pkg/store/limits"
	"github.com/emberscope/emberscope/pkg/store/telemetry"
)

// runStore runs the embedded profile store until SIGINT or SIGTERM.
func runStore(args []string) error {
	fs := flag.NewFlagSet("store", flag.ContinueOnError)
	listen := fs.String("listen", "127.0.0.1:4040", "address to serve the Pyroscope API on")
	data := fs.String("data", "data", "data directory")
	maxAge := fs.Duration("max-age", 0, "deprecated: use -reject-older-than")
	multi := fs.Bool("multitenancy", false, "honour X-Scope-OrgID (required on every request); off, all data belongs to the tenant \"anonymous\"")
	token := fs.String("auth-token", "", "require \"Authorization: Bearer <token>\" on push and query (default: $EMBERSCOPE_AUTH_TOKEN)")
	hosts := fs.String("allowed-hosts", "", "comma-separated host names accepted in the Host header besides IP addresses, localhost and the -listen host (\"*\": any)")
	salvage := fs.Bool("salvage", false, "when the data directory is corrupt, move it aside and start with what is readable")
	backfill := fs.Bool("backfill", false, "accept profiles of any time and keep them forever (-reject-older-than=0 -reject-newer-than=0 -retention=0)")
	vectorOpts := noveltyFlags(fs)
	recordingOpts := recordingFlags(fs)
	lim := limits.Defaults()
	lim.RegisterFlags(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	vo, err := vectorOpts()
	if err != nil {
		return err
	}
	ro, err := recordingOpts()
	if err != nil {
		return err
	}
	if *backfill {
		lim.RejectOlderThan, lim.RejectNewerThan, lim.Retention = 0, 0, 0
	}
	if *maxAge > 0 {
		lim.RejectOlderThan = *maxAge
	}
	if *token == "" {
		*token = os.Getenv("EMBERSCOPE_AUTH_TOKEN")
	}
	logger := slog.New(redact.Handler(slog.NewTextHandler(os.Stderr, nil)))
	tracing, err := telemetry.SetupTracing(context.Background())
	if err != nil {
		return err
	}
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := tracing.Shutdown(ctx); err != nil {
			logger.Warn("flushing traces", "err", err)
		}
	}()
	ctx, stop := signalContext()
	defer stop()
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	st, err := store.Open(store.Options{
		Dir: *data, Logger: logger, Limits: &lim,
		Multitenancy: *multi, AuthToken: *token,
		ListenAddr: *listen, AllowedHosts: httpguard.ParseHosts(*hosts),
		WaitOnDiskFull: ctx, Salvage: *salvage,
		TracerProvider: tracing.Provider, Vectors: vo, Recording: ro,
	})
	if err != nil {
		ln.Close()
		return err
	}
	defer st.Close()
	srv := startServer(ln, st.Handler())
	logger.Info("store listening", "addr", ln.Addr().String(), "data", *data, "multitenancy", *multi, "auth", *token != "", "tracing", tracing.Enabled)
	return serveUntilDone(ctx, srv)
}
