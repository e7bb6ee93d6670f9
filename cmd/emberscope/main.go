// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Command emberscope runs the embedded profile store, the playground (the
// datasource behind Grafana's HTTP shapes) and the demo.
package main

import (
	"fmt"
	"os"

	"github.com/emberscope/emberscope/pkg/security/redact"
)

const usage = `usage: emberscope <command> [flags]

commands:
  store        run the embedded profile store (Pyroscope push and query API)
  playground   serve the datasource behind Grafana's HTTP API and the playground page
  demo         run store, an instrumented demo service, a load generator and the playground
  open         serve the playground on profile files, like go tool pprof -http
  health       exit 0 when a store answers /ready (the container image's health check)
`

func main() {
	if len(os.Args) < 2 {
		fmt.Fprint(os.Stderr, usage)
		os.Exit(2)
	}
	var err error
	switch cmd, args := os.Args[1], os.Args[2:]; cmd {
	case "store":
		err = runStore(args)
	case "playground":
		err = runPlayground(args)
	case "demo":
		err = runDemo(args)
	case "open":
		err = runOpen(args)
	case "health":
		err = runHealth(args)
	case "-h", "--help", "help":
		fmt.Print(usage)
		return
	default:
		fmt.Fprintf(os.Stderr, "emberscope: unknown command %q\n\n%s", cmd, usage)
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "emberscope %s: %s\n", os.Args[1], redact.String(err.Error()))
		os.Exit(1)
	}
}
