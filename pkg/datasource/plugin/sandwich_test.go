// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"encoding/json"
	"testing"

	"github.com/grafana/grafana-plugin-sdk-go/data"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/internal/fixtures"
	"github.com/emberscope/emberscope/internal/pproforacle"
)

// sandwichMeta reads a sandwich frame's meta custom.sandwich.
func sandwichMeta(t *testing.T, f *data.Frame) sandwichInfo {
	t.Helper()
	require.NotNil(t, f.Meta)
	b, err := json.Marshal(f.Meta.Custom)
	require.NoError(t, err)
	var m struct {
		Sandwich *sandwichInfo `json:"sandwich"`
	}
	require.NoError(t, json.Unmarshal(b, &m))
	require.NotNil(t, m.Sandwich, "the frame says which sandwich half it is")
	return *m.Sandwich
}

// firstLevel is the values of a half's rows one level below the function,
// its calls of itself left out as pprof's -peek leaves them out (the
// sandwich draws them: a recursive call is a caller and a callee).
func firstLevel(rows []flameRow) map[string]int64 {
	out := map[string]int64{}
	for _, r := range rows {
		if r.Level == 1 && r.Label != rows[0].Label {
			out[r.Label] += r.Value
		}
	}
	return out
}

// outermostTotal sums the totals of fn's nodes that have no fn above them:
// what a sandwich merged from the frame counts as fn's cum.
func outermostTotal(rows []flameRow, fn string) int64 {
	var total int64
	inside := -1 // the level of the fn node the walk is under, -1 for none
	for _, r := range rows {
		if inside >= 0 && int(r.Level) <= inside {
			inside = -1
		}
		if inside < 0 && r.Label == fn {
			total += r.Value
			inside = int(r.Level)
		}
	}
	return total
}

// TestSandwichOfACutFunctionIsMergedAtFullResolution asks, on a profile of
// more than 100,000 nodes whose flamegraph is cut at 16,384, for the
// sandwiches of the trie's recursive functions: each function's flat and
// cum and its caller and callee edges equal `go tool pprof -peek '^fn$'` of
// the file, where the cut graph had lost part of the function to "other";
// each half is cut at maxNodes on its own, and says so.
func TestSandwichOfACutFunctionIsMergedAtFullResolution(t *testing.T) {
	fx := deepStore(t)
	d := newDS(t, fx.url)
	base := `"profileTypeId":"` + deepType + `","labelSelector":"{service_name=\"deep\"}","maxNodes":16384`
	cut := flameRows(t, ok(t, run(t, d, q("A", "profile", "{"+base+"}")), "A")[0])
	require.LessOrEqual(t, len(cut), 16384)

	file := fixtures.ProfilePath(t, deepFile)
	for _, fn := range []string{"main.descendLeft", "main.descendRight", "main.descend"} {
		peek := pproforacle.PeekOf(t, file, fn, "-sample_index=alloc_space", "-unit=B")
		if fn != "main.descend" {
			require.Less(t, outermostTotal(cut, fn), peek.Cum, "the cut graph lost part of %s to other", fn)
		}
		name, err := json.Marshal(fn)
		require.NoError(t, err)
		frames := ok(t, run(t, d, q("S", "profile", "{"+base+`,"sandwich":`+string(name)+"}")), "S")
		require.Len(t, frames, 2, "the callers and the callees")
		callers, callees := flameRows(t, frames[0]), flameRows(t, frames[1])
		uncut := uncutHalves(fx.traces, fn)
		for i, want := range []string{sandwichCallers, sandwichCallees} {
			meta := sandwichMeta(t, frames[i])
			require.Equal(t, want, meta.Half)
			require.Equal(t, fn, meta.Function)
			require.Equal(t, peek.Flat, meta.Self, "%s: flat as pprof's", fn)
			require.Equal(t, peek.Cum, meta.Total, "%s: cum as pprof's", fn)
			require.LessOrEqual(t, frames[i].Rows(), 16384, "%s %s: cut at maxNodes", fn, want)
			require.Equal(t, uncut[i] > 16384, meta.Cut, "%s %s (%d merged nodes) says whether it was cut", fn, want, uncut[i])
		}
		require.Equal(t, fn, callers[0].Label)
		require.Equal(t, peek.Cum, callers[0].Value, "%s: the callers' root is its cum", fn)
		require.Equal(t, peek.Cum, callees[0].Value, "%s: the callees' root is its cum", fn)
		require.Equal(t, peek.Callers, firstLevel(callers), "%s: callers as pprof -peek", fn)
		require.Equal(t, peek.Callees, firstLevel(callees), "%s: callees as pprof -peek", fn)
	}
}

// uncutHalves counts the nodes of fn's callers and callees merged from
// pprof's traces: the distinct caller paths and callee paths of every
// occurrence of fn, the function itself included.
func uncutHalves(traces []pproforacle.Trace, fn string) [2]int {
	halves := [2]map[string]bool{{}, {}}
	for _, tr := range traces {
		for i, f := range tr.Stack {
			if f != fn {
				continue
			}
			key := ""
			for j := i; j >= 0; j-- {
				key += tr.Stack[j] + ";"
				halves[0][key] = true
			}
			key = ""
			for _, g := range tr.Stack[i:] {
				key += g + ";"
				halves[1][key] = true
			}
		}
	}
	return [2]int{len(halves[0]), len(halves[1])}
}

// TestSandwichRefusesWhatItCannotAnswer: a function no stack holds and a
// sandwich asked with a call site get errors that say what was wrong.
func TestSandwichRefusesWhatItCannotAnswer(t *testing.T) {
	fx := deepStore(t)
	d := newDS(t, fx.url)
	base := `"profileTypeId":"` + deepType + `","labelSelector":"{service_name=\"deep\"}"`
	resp := run(t, d,
		q("N", "profile", "{"+base+`,"sandwich":"main.nowhere"}`),
		q("C", "profile", "{"+base+`,"sandwich":"main.descend","callSite":["runtime.main"]}`),
	)
	require.ErrorContains(t, resp.Responses["N"].Error, `sandwich: no stack of the range holds the function "main.nowhere"`)
	require.ErrorContains(t, resp.Responses["C"].Error, "sandwich: a sandwich is merged over the whole graph; leave callSite empty")
}
