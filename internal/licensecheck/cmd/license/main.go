// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Command license checks the repository's licensing (go tool mage license
// runs the same check): every source file carries the Apache-2.0 header, and
// every Go and npm dependency is under an allowed license. With -fix it adds
// the missing headers instead of failing on them.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/emberscope/emberscope/internal/licensecheck"
)

func main() {
	fix := flag.Bool("fix", false, "add the license header to every source file that lacks it")
	root := flag.String("root", ".", "repository root")
	quiet := flag.Bool("q", false, "do not print the dependency list")
	flag.Parse()
	if err := run(*root, *fix, *quiet); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(root string, fix, quiet bool) error {
	if fix {
		fixed, err := licensecheck.FixHeaders(root)
		for _, f := range fixed {
			fmt.Println("added the license header to", f)
		}
		if err != nil {
			return err
		}
	}
	o := licensecheck.Options{Root: root, Out: os.Stdout}
	if quiet {
		o.Out = nil
	}
	res, err := licensecheck.Run(context.Background(), o)
	if err != nil {
		return err
	}
	return res.Err()
}
