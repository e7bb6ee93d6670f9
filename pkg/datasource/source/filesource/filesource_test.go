// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package filesource

import (
	"context"
	"testing"

	"github.com/emberscope/emberscope/internal/fixtures"
	"github.com/emberscope/emberscope/internal/pproforacle"
	"github.com/emberscope/emberscope/pkg/datasource/source"
	"github.com/emberscope/emberscope/pkg/profile/fileformat"
)

func decode(t *testing.T, name string) *fileformat.File {
	t.Helper()
	f, err := fileformat.Decode(name, fixtures.Profile(t, name), fileformat.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// Two files merge as pprof merges them: `go tool pprof -top a b`.
func TestFilesMergeAsPprof(t *testing.T) {
	src := New(decode(t, "heap-1.pb.gz"), decode(t, "heap-2.pb.gz"))
	out := pproforacle.Output(t, fixtures.ProfilePath(t, "heap-2.pb.gz"), "-top", "-nodecount=0", "-nodefraction=0", "-edgefraction=0", "-unit=B", "-sample_index=alloc_space", fixtures.ProfilePath(t, "heap-1.pb.gz"))
	_, want, err := pproforacle.ParseTop(out)
	if err != nil {
		t.Fatal(err)
	}
	tree, err := src.MergeStacks(context.Background(), source.StacksRequest{Selection: source.Selection{ProfileTypeID: "memory:alloc_space:bytes:space:bytes"}})
	if err != nil {
		t.Fatal(err)
	}
	if tree.Total() != want {
		t.Errorf("merged alloc_space %d, pprof says %d", tree.Total(), want)
	}
	one, err := src.MergeStacks(context.Background(), source.StacksRequest{Selection: source.Selection{ProfileTypeID: "memory:alloc_space:bytes:space:bytes", LabelSelector: `{service_name="heap-1.pb.gz"}`}})
	if err != nil {
		t.Fatal(err)
	}
	if w := pproforacle.Top(t, fixtures.ProfilePath(t, "heap-1.pb.gz"), pproforacle.Options{SampleType: "alloc_space"}).Total; one.Total() != w {
		t.Errorf("heap-1 selected by service_name: %d, pprof says %d", one.Total(), w)
	}
}
