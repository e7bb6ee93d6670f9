// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// signalContext is cancelled by SIGINT or SIGTERM.
func signalContext() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

// server is an HTTP server serving on its listener in the background.
type server struct {
	http *http.Server
	done chan error
}

// startServer serves h on l until shut down.
func startServer(l net.Listener, h http.Handler) *server {
	s := &server{
		http: &http.Server{
			Handler:           h,
			ReadHeaderTimeout: 10 * time.Second,
			// A 256 MiB body at 2 MB/s; queries are bounded by WriteTimeout.
			ReadTimeout:    2 * time.Minute,
			WriteTimeout:   5 * time.Minute,
			IdleTimeout:    2 * time.Minute,
			MaxHeaderBytes: 1 << 20,
		},
		done: make(chan error, 1),
	}
	go func() { s.done <- s.http.Serve(l) }()
	return s
}

// serveUntilDone waits until ctx is done or one of the servers fails, then
// shuts them all down, the last started first, giving requests 10 s.
func serveUntilDone(ctx context.Context, servers ...*server) error {
	failed := make(chan error, len(servers))
	for _, s := range servers {
		go func() {
			if err := <-s.done; !errors.Is(err, http.ErrServerClosed) {
				failed <- err
			}
		}()
	}
	var err error
	select {
	case e := <-failed:
		err = fmt.Errorf("serve: %w", e)
	case <-ctx.Done():
		fmt.Println("stopping")
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for i := len(servers) - 1; i >= 0; i-- {
		if e := servers[i].http.Shutdown(shutdownCtx); e != nil && err == nil {
			err = e
		}
	}
	return err
}
