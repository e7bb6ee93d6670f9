// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package gopgo

import (
	"testing"

	"github.com/google/pprof/profile"
	"github.com/stretchr/testify/require"
)

// chains builds a CPU profile of stacks given leaf first as function:line.
func chains(stacks map[string][][2]any) *profile.Profile {
	p := &profile.Profile{SampleType: []*profile.ValueType{{Type: "cpu", Unit: "nanoseconds"}}}
	fns := map[string]*profile.Function{}
	locs := map[[2]any]*profile.Location{}
	for _, name := range []string{"a", "b"} {
		var ls []*profile.Location
		for _, fl := range stacks[name] {
			f := fns[fl[0].(string)]
			if f == nil {
				f = &profile.Function{ID: uint64(len(p.Function) + 1), Name: fl[0].(string)}
				fns[f.Name] = f
				p.Function = append(p.Function, f)
			}
			l := locs[fl]
			if l == nil {
				l = &profile.Location{ID: uint64(len(p.Location) + 1), Line: []profile.Line{{Function: f, Line: int64(fl[1].(int))}}}
				locs[fl] = l
				p.Location = append(p.Location, l)
			}
			ls = append(ls, l)
		}
		p.Sample = append(p.Sample, &profile.Sample{Value: []int64{10}, Location: ls, Label: map[string][]string{"stack": {name}}})
	}
	return p
}

func stackOf(s *profile.Sample) (out []string) {
	for _, l := range s.Location {
		out = append(out, l.Line[0].Function.Name)
	}
	return out
}

// Two stacks that differ only beyond the kept locations become one sample
// holding both values; their labels do not keep them apart.
func TestCutSumsStacksEqualAfterTheCut(t *testing.T) {
	p := chains(map[string][][2]any{
		"a": {{"leaf", 3}, {"mid", 7}, {"rootA", 1}},
		"b": {{"leaf", 3}, {"mid", 7}, {"rootB", 1}},
	})
	out, err := Cut(p, Options{KeepLocations: 2})
	require.NoError(t, err)
	require.Len(t, out.Sample, 1)
	require.Equal(t, []string{"leaf", "mid"}, stackOf(out.Sample[0]))
	require.Equal(t, int64(20), out.Sample[0].Value[0])
	require.Equal(t, int64(3), out.Sample[0].Location[0].Line[0].Line, "without AggregateCallees the leaf keeps its line")
}

// With AggregateCallees two leaves of one function at different lines are
// one callee; the callers' lines stay.
func TestCutAggregatesCallees(t *testing.T) {
	p := chains(map[string][][2]any{
		"a": {{"leaf", 3}, {"mid", 7}},
		"b": {{"leaf", 4}, {"mid", 7}},
	})
	out, err := Cut(p, Defaults())
	require.NoError(t, err)
	require.Len(t, out.Sample, 1)
	require.Equal(t, int64(0), out.Sample[0].Location[0].Line[0].Line)
	require.Equal(t, int64(7), out.Sample[0].Location[1].Line[0].Line)
	require.Equal(t, int64(20), out.Sample[0].Value[0])
}

func TestCutRefusesNegativeKeep(t *testing.T) {
	_, err := Cut(chains(nil), Options{KeepLocations: -1})
	require.ErrorContains(t, err, "negative")
}
