// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package goroutinelabels

import (
	"context"
	"reflect"
	"runtime/pprof"
	"testing"
)

func TestCurrentReadsTheGoroutinesLabels(t *testing.T) {
	pprof.Do(context.Background(), pprof.Labels("a", "1", "quote", `x"y, z`), func(context.Context) {
		got, err := Current()
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]string{"a": "1", "quote": `x"y, z`}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("labels %v, want %v", got, want)
		}
	})
	got, err := Current()
	if err != nil || len(got) != 0 {
		t.Fatalf("after pprof.Do: labels %v (err %v), want none", got, err)
	}
}
