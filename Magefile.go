//go:build mage

package main

import (
	"github.com/magefile/mage/sh"

	// mage:import
	build "github.com/grafana/grafana-plugin-sdk-go/build"
)

// Default builds the plugin's backend for every platform Grafana supports
// (into dist/datasource, next to the nested datasource's plugin.json).
var Default = build.BuildAll

// Demo builds everything and runs the demo (the README's first command).
func Demo() error { return sh.RunV("bash", "scripts/demo.sh") }

// Check runs every test (the README's second command, what CI runs).
func Check() error { return sh.RunV("bash", "scripts/test.sh") }
