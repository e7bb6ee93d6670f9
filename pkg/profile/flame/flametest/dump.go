// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package flametest

import (
	"fmt"
	"strings"

	"github.com/emberscope/emberscope/pkg/profile/flame"
)

// Dump renders t one node a line in Walk order, indented two spaces a level,
// as "name total/self"; virtual nodes read "[label=value] total/self" and
// "other" nodes "(other) total/self". Tests compare shapes with it.
func Dump(t *flame.Tree) string {
	var b strings.Builder
	t.Walk(func(n flame.NodeID, depth int) {
		b.WriteString(strings.Repeat("  ", depth))
		switch t.Kind(n) {
		case flame.KindVirtual:
			fmt.Fprintf(&b, "[%s=%s]", t.VirtualLabel(n), t.Name(n))
		case flame.KindOther:
			fmt.Fprintf(&b, "(%s)", t.Name(n))
		default:
			b.WriteString(t.Name(n))
		}
		fmt.Fprintf(&b, " %d/%d\n", t.NodeTotal(n), t.Self(n))
	})
	return b.String()
}

// Stacks builds a tree from "a;b;c value" lines (folded stacks, root first).
// It panics on a malformed line, which is a bug in the test that wrote it.
func Stacks(lines ...string) *flame.Tree {
	t := flame.New()
	for _, l := range lines {
		i := strings.LastIndexByte(l, ' ')
		if i < 0 {
			panic(fmt.Sprintf("flametest: %q: want \"a;b;c value\"", l))
		}
		var v int64
		if _, err := fmt.Sscan(l[i+1:], &v); err != nil {
			panic(fmt.Sprintf("flametest: %q: bad value: %v", l, err))
		}
		t.InsertStackNames(v, strings.Split(l[:i], ";")...)
	}
	return t
}
