package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"os"
	"time"

	"github.com/emberscope/emberscope/pkg/store"
	"github.com/emberscope/emberscope/pkg/store/telemetry"
)

// runStore runs the embedded profile store until SIGINT or SIGTERM.
func runStore(args []string) error {
	fs := flag.NewFlagSet("store", flag.ContinueOnError)
	listen := fs.String("listen", "127.0.0.1:4040", "address to serve the Pyroscope API on")
	data := fs.String("data", "data", "data directory")
	maxAge := fs.Duration("max-age", 0, "refuse profiles older than this (0 accepts any time)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, nil))
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
	st, err := store.Open(store.Options{Dir: *data, Logger: logger, MaxAge: *maxAge, TracerProvider: tracing.Provider})
	if err != nil {
		return err
	}
	defer st.Close()
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	ctx, stop := signalContext()
	defer stop()
	srv := startServer(ln, st.Handler())
	logger.Info("store listening", "addr", ln.Addr().String(), "data", *data, "tracing", tracing.Enabled)
	return serveUntilDone(ctx, srv)
}
