// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

//go:build mage

package main

import (
	"context"
	"fmt"
	"os"

	"github.com/magefile/mage/sh"

	// mage:import
	build "github.com/grafana/grafana-plugin-sdk-go/build"

	"github.com/emberscope/emberscope/internal/licensecheck"
	"github.com/emberscope/emberscope/internal/release"
)

// Default builds the plugin's backend for every platform Grafana supports
// (into dist/datasource, next to the nested datasource's plugin.json).
var Default = build.BuildAll

// Demo builds everything and runs the demo (the README's first command).
func Demo() error { return sh.RunV("bash", "scripts/demo.sh") }

// Check runs every test (the README's second command, what CI runs).
func Check() error { return sh.RunV("bash", "scripts/test.sh") }

// Package builds the frontend and the backend for linux, darwin and windows
// on amd64 and arm64, checks the result against Grafana's plugin validator
// rules and writes artifacts/<plugin-id>-<version>.zip and its .sha256.
func Package(ctx context.Context) error {
	_, err := release.Build(ctx, release.Options{Root: ".", OutDir: "artifacts", Log: os.Stdout})
	return err
}

// PackageCheck checks a package zip already written (go tool mage packageCheck
// artifacts/emberscope-app-<version>.zip) with the rules Package applies
// before writing it, against this tree's src/, go.mod and package.json.
func PackageCheck(zip string) error {
	version, err := release.PackageVersion("package.json")
	if err != nil {
		return err
	}
	problems, err := release.CheckZip(zip, release.Expect{Version: version, SourceDir: "src", GoMod: "go.mod"})
	if err != nil {
		return err
	}
	for _, p := range problems {
		if p.Warning {
			fmt.Println("warning:", p)
		}
	}
	if errs := release.Errors(problems); len(errs) > 0 {
		return &release.ProblemsError{Problems: errs}
	}
	fmt.Println(zip, "passes")
	return nil
}

// License checks that every source file carries the license header (files
// git ignores, such as built pages, are not sources) and that every Go and
// npm dependency is under an allowed license, and prints
// the dependencies' licenses (runtime and bundled apart from dev tools).
func License(ctx context.Context) error { return runLicense(ctx, false) }

// LicenseFix adds the license header where it is missing, then checks as License does
// (the same as go run ./internal/licensecheck/cmd/license -fix).
func LicenseFix(ctx context.Context) error { return runLicense(ctx, true) }

func runLicense(ctx context.Context, fix bool) error {
	if fix {
		fixed, err := licensecheck.FixHeaders(".")
		for _, f := range fixed {
			fmt.Println("added the license header to", f)
		}
		if err != nil {
			return err
		}
	}
	res, err := licensecheck.Run(ctx, licensecheck.Options{Root: ".", Out: os.Stdout})
	if err != nil {
		return err
	}
	return res.Err()
}

// Image builds the store's container image emberscope:<version> (and
// emberscope:local, which docker-compose.yaml uses) with Docker.
func Image(ctx context.Context) error {
	if err := sh.Run("docker", "info", "--format", "{{.ServerVersion}}"); err != nil {
		return fmt.Errorf("image: needs a running Docker engine (docker info failed: %w)", err)
	}
	version, err := release.PackageVersion("package.json")
	if err != nil {
		return err
	}
	return sh.RunV("docker", "build", "-t", "emberscope:"+version, "-t", "emberscope:local", ".")
}
