// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Command genfunctions writes the query editor's list of the query
// language's functions (src/datasource/language/functions.json) from
// pkg/datasource/query's function table, so that the editor cannot drift from the
// parser. `go generate ./pkg/datasource/query` runs it.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"

	"github.com/emberscope/emberscope/pkg/datasource/query"
)

func main() {
	out := flag.String("o", "src/datasource/language/functions.json", "the file to write")
	flag.Parse()
	b, err := render()
	if err == nil {
		err = os.WriteFile(*out, b, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "genfunctions:", err)
		os.Exit(1)
	}
}

// render is the JSON list of the editor's functions, two-space indented,
// ending in a newline.
func render() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(query.EditorFunctions()); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
