// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package querier

import (
	typesv1 "github.com/grafana/pyroscope/api/gen/proto/go/types/v1"
)

// stackSelection is a request's types.v1.StackTraceSelector as Pyroscope
// v2.2.1 applies it to SelectMergeStacktraces and SelectMergeProfile
// (recordings 74–87): a call site keeps the stacks that start with it; an
// empty one selects everything (78). go_pgo cuts every stack of a pprof
// answer to its leaf-most locations and, when set, the call site is not
// applied to that answer (86); flamegraphs and trees are not cut, only
// selected by the call site (87). The zero selection keeps every stack whole.
type stackSelection struct {
	// callSite are the function names the kept stacks start with, root first.
	callSite []string
	// pgo, when set, cuts each stack of a pprof answer for Go's
	// profile-guided optimisation.
	pgo *typesv1.GoPGO
}

func newStackSelection(sel *typesv1.StackTraceSelector) stackSelection {
	if sel == nil {
		return stackSelection{}
	}
	var names []string
	for _, loc := range sel.CallSite {
		names = append(names, loc.GetName())
	}
	return stackSelection{callSite: names, pgo: sel.GoPgo}
}

// byCallSite tells whether stacks are kept or dropped by a call site.
func (s stackSelection) byCallSite() bool { return len(s.callSite) > 0 }
