// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package parca

import (
	"bytes"
	"encoding/json"
	"slices"
	"testing"

	"github.com/google/pprof/profile"

	"github.com/emberscope/emberscope/internal/fixtures"
	"github.com/emberscope/emberscope/pkg/profile/flame"
	"github.com/emberscope/emberscope/pkg/profile/model"
)

// readRecording reads a recorded file; a missing one fails the benchmark.
func readRecording(b *testing.B, name string) []byte {
	b.Helper()
	return fixtures.Read(b, "parca/"+name)
}

// BenchmarkFlamegraphToTree decodes the recorded FLAMEGRAPH_TABLE answer
// (3.77 s of CPU, 495 locations) and converts it into a tree: the client's
// whole MergeStacks cost after the network.
func BenchmarkFlamegraphToTree(b *testing.B) {
	pretty := readRecording(b, "20-query-merge-flamegraph-table.response.json")
	// The recording is pretty-printed; Parca sends it compact.
	var compact bytes.Buffer
	if err := json.Compact(&compact, pretty); err != nil {
		b.Fatal(err)
	}
	raw := compact.Bytes()
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		var resp queryResponse
		if err := json.Unmarshal(raw, &resp); err != nil {
			b.Fatal(err)
		}
		if _, err := treeFromFlamegraph(resp.Flamegraph); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReferencePprofToTree is the reference for the benchmark above:
// the same merged profile as pprof (the recorded PPROF answer), parsed with
// google/pprof and inserted into a tree stack by stack.
func BenchmarkReferencePprofToTree(b *testing.B) {
	raw := readRecording(b, "21-query-merge-pprof.pb.gz")
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	var stack []string
	for b.Loop() {
		p, err := profile.Parse(bytes.NewReader(raw))
		if err != nil {
			b.Fatal(err)
		}
		t := flame.New()
		for _, s := range p.Sample {
			stack = stack[:0]
			for _, loc := range s.Location {
				for _, ln := range loc.Line {
					stack = append(stack, model.FunctionName(ln.Function.Name))
				}
			}
			slices.Reverse(stack)
			t.InsertStackNames(s.Value[0], stack...)
		}
	}
}
