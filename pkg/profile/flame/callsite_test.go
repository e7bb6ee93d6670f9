// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package flame

import "testing"

func TestCallSiteKeepsTheSamplesUnderThePath(t *testing.T) {
	tr := New()
	tr.InsertStackNames(5, "main", "a", "b", "c")
	tr.InsertStackNames(3, "main", "a", "b")
	tr.InsertStackNames(7, "main", "a")
	tr.InsertStackNames(11, "main", "x", "a", "b")
	tr.InsertStackNames(2, "main", "a", "d")
	got := CallSite(tr, []string{"main", "a", "b"})
	want := map[string]int64{"total": 8, "main": 8, "main;a": 8, "main;a;b": 8, "main;a;b;c": 5}
	gotTotals := map[string]int64{}
	gotTotals["total"] = got.Total()
	got.Walk(func(n NodeID, _ int) {
		if n == Root {
			return
		}
		key := got.Name(n)
		for p := got.Parent(n); p != Root; p = got.Parent(p) {
			key = got.Name(p) + ";" + key
		}
		gotTotals[key] = got.NodeTotal(n)
	})
	if len(gotTotals) != len(want) {
		t.Fatalf("got %v, want %v", gotTotals, want)
	}
	for k, v := range want {
		if gotTotals[k] != v {
			t.Fatalf("%s: got %d, want %d (all %v)", k, gotTotals[k], v, gotTotals)
		}
	}
	if got.Self(got.Children(got.Children(got.Children(Root)[0])[0])[0]) != 3 {
		t.Fatal("the call site keeps the value of the samples that end there")
	}
	if CallSite(tr, []string{"main", "nope"}).Total() != 0 {
		t.Fatal("a path not in the tree selects nothing")
	}
}
