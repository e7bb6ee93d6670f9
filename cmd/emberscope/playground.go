// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"flag"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"

	"github.com/emberscope/emberscope/pkg/hosts/playground"
	"github.com/emberscope/emberscope/pkg/security/httpguard"
	"github.com/emberscope/emberscope/pkg/security/redact"
	"github.com/emberscope/emberscope/pkg/store"
)

// runPlayground serves the datasource behind Grafana's HTTP shapes and the
// playground page. Without -url it runs the embedded store in-process on a
// loopback port and reads from it.
func runPlayground(args []string) error {
	fs := flag.NewFlagSet("playground", flag.ContinueOnError)
	listen := fs.String("listen", "127.0.0.1:3000", "address to serve the playground on")
	backendURL := fs.String("url", "", "profile server to read (Pyroscope querier API); empty runs the embedded store")
	dataDir := fs.String("data", "", "data directory of the embedded store (default: emberscope-data in the user cache directory)")
	static := fs.String("static", "", "directory of a built playground page to serve instead of the one in the binary")
	backfill := fs.Bool("backfill", false, "the embedded store accepts profiles of any time and keeps them forever (no ingest window, no retention), for loading recorded profiles")
	hosts := fs.String("allowed-hosts", "", "comma-separated host names accepted in the Host header besides IP addresses, localhost and the -listen host (\"*\": any)")
	var sourceRoots sourceRootsFlag
	fs.Var(&sourceRoots, "source-root", sourceRootUsage)
	if err := fs.Parse(args); err != nil {
		return err
	}
	logger := slog.New(redact.Handler(slog.NewTextHandler(os.Stderr, nil)))
	ctx, stop := signalContext()
	defer stop()

	var servers []*server
	if *backendURL == "" {
		dir := *dataDir
		if dir == "" {
			cache, err := os.UserCacheDir()
			if err != nil {
				return fmt.Errorf("no -data given and no user cache directory: %w", err)
			}
			dir = filepath.Join(cache, "emberscope-data")
		}
		st, err := store.Open(store.Options{Dir: dir, NoIngestWindow: *backfill, NoRetention: *backfill})
		if err != nil {
			return fmt.Errorf("open the embedded store in %s: %w", dir, err)
		}
		defer st.Close()
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return fmt.Errorf("listen for the embedded store: %w", err)
		}
		servers = append(servers, startServer(l, st.Handler()))
		*backendURL = "http://" + l.Addr().String()
		fmt.Printf("embedded store in %s at %s (send profiles to %s/ingest)\n", dir, *backendURL, *backendURL)
	}

	h, err := playground.New(playground.Options{BackendURL: *backendURL, StaticDir: *static, Logger: logger, SourceRoots: sourceRoots})
	if err != nil {
		return err
	}
	l, err := net.Listen("tcp", *listen)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", *listen, err)
	}
	guarded := httpguard.Access{ListenAddr: *listen, AllowedHosts: httpguard.ParseHosts(*hosts)}.Guard(h)
	servers = append(servers, startServer(l, guarded))
	fmt.Printf("playground at http://%s (profiles from %s)\n", l.Addr(), redact.URL(*backendURL))
	return serveUntilDone(ctx, servers...)
}
