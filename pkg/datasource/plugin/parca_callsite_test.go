// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/internal/fixtures"
	"github.com/emberscope/emberscope/internal/pproforacle"
)

// TestParcaFocusFiltersTheMergedProfile focuses a flamegraph on call sites
// through the replay of a real Parca v0.28.0 server, which has no call site
// selector: the datasource filters the range's merged pprof (recording 21)
// to the path, and each answer is the subtree pprof's traces of that same
// recorded pprof give, node for node, with the whole graph's total beside it.
func TestParcaFocusFiltersTheMergedProfile(t *testing.T) {
	d := parcaDS(t)
	traces := pproforacle.Traces(t, filepath.Join(fixtures.Parca(), "21-query-merge-pprof.pb.gz"), "-unit=ns")
	_, wholeTotal := oracleCallSite(traces, nil)
	require.Equal(t, int64(3770000000), wholeTotal, "the recorded merge holds the 3.77 s of CPU")

	paths := parcaCallSites(traces)
	require.GreaterOrEqual(t, len(paths), 3, "the recorded profile has call paths at three depths")
	for _, path := range paths {
		want, siteTotal := oracleCallSite(traces, path)
		require.Positive(t, siteTotal)
		callSite, err := json.Marshal(path)
		require.NoError(t, err)
		js := `{"profileTypeId":"` + cpuType + `","labelSelector":"{job=\"demo-labeled\"}","callSite":` + string(callSite) + `}`
		frames := ok(t, run(t, d, parcaQuery("F", "profile", js)), "F")
		require.Len(t, frames, 1)
		require.Equal(t, siteTotal, flameRows(t, frames[0])[0].Value, "the root holds the call site's total")
		require.Equal(t, want, frameTree(t, frames[0]), "focus on %s: pprof's subtree, node for node", strings.Join(path, ";"))
		site := callSiteMeta(t, frames[0])
		require.Equal(t, selectedByDatasource, site.SelectedBy, "Parca selects no call site: the datasource filtered")
		require.Equal(t, wholeTotal, site.WholeTotal, "widths stay against the whole graph")
		require.Equal(t, path, site.Path)
		notices := frames[0].Meta.Notices
		require.Contains(t, notices[len(notices)-1].Text, "the datasource filtered")
	}
}

// parcaCallSites picks the root-side frames of the heaviest trace under
// main.main at depths 2, 4 and 6 (and the deepest trace's at half its
// depth), so the filter is checked near the root and deep in the stacks.
func parcaCallSites(traces []pproforacle.Trace) [][]string {
	var heaviest, deepest pproforacle.Trace
	for _, tr := range traces {
		if !slices.Contains(tr.Stack, "main.main") {
			continue
		}
		if tr.Value > heaviest.Value || (tr.Value == heaviest.Value && strings.Join(tr.Stack, ";") < strings.Join(heaviest.Stack, ";")) {
			heaviest = tr
		}
		if len(tr.Stack) > len(deepest.Stack) {
			deepest = tr
		}
	}
	var out [][]string
	for _, n := range []int{2, 4, 6} {
		if n <= len(heaviest.Stack) {
			out = append(out, slices.Clone(heaviest.Stack[:n]))
		}
	}
	if len(deepest.Stack) > 2 {
		out = append(out, slices.Clone(deepest.Stack[:len(deepest.Stack)/2+1]))
	}
	return out
}
