// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// sourceRootsFlag is the repeatable -source-root DIR: folders the source
// view reads source files from.
type sourceRootsFlag []string

const sourceRootUsage = "folder holding source code the source view shows (repeatable)"

func (f *sourceRootsFlag) String() string { return strings.Join(*f, ",") }

// Set checks that dir is a folder and keeps its absolute path.
func (f *sourceRootsFlag) Set(dir string) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return fmt.Errorf("-source-root %q: %w", dir, err)
	}
	st, err := os.Stat(abs)
	if err != nil {
		return fmt.Errorf("-source-root %q: %w", dir, err)
	}
	if !st.IsDir() {
		return fmt.Errorf("-source-root %q: not a folder", dir)
	}
	*f = append(*f, abs)
	return nil
}
