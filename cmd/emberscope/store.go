package main

import (
	"flag"
	"fmt"
	"log/slog"
	"net"
	"os"

	"github.com/emberscope/emberscope/pkg/store"
)

// runStore runs the embedded profile store until SIGINT or SIGTERM.
func runStore(args []string) error {
	fs := flag.NewFlagSet("store", flag.ContinueOnError)
	listen := fs.String("listen", "127.0.0.1:4040", "address to serve the Pyroscope API on")
	data := fs.String("data", "data", "data directory")
	maxAge := fs.Duration("max-age", 0, "refuse profiles older than this (0 accepts any time)")
	vectorOpts := noveltyFlags(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	vo, err := vectorOpts()
	if err != nil {
		return err
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, nil))
	st, err := store.Open(store.Options{Dir: *data, Logger: logger, MaxAge: *maxAge, Vectors: vo})
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
	logger.Info("store listening", "addr", ln.Addr().String(), "data", *data)
	return serveUntilDone(ctx, srv)
}
