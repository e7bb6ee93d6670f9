// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package labelframes

import (
	"strings"

	"github.com/emberscope/emberscope/pkg/profile/flame"
)

// MissingName is the name of the virtual frame (and contribution row) that
// collects the samples without label: "(no <label>)".
func MissingName(label string) string { return "(no " + label + ")" }

// stepKind tells what one level of a virtual path stands for.
type stepKind uint8

const (
	// stepValue is a label value present on the samples.
	stepValue stepKind = iota
	// stepMissing is the samples without the label.
	stepMissing
	// stepOther is the values folded beyond the limit.
	stepOther
)

// step is one level of a virtual path.
type step struct {
	label string
	value string
	kind  stepKind
}

// frames returns the names of the frames a step makes: one per part of the
// value split by sep (spaces around parts trimmed, empty parts dropped).
func (s step) frames(sep string) []string {
	switch s.kind {
	case stepMissing:
		return []string{MissingName(s.label)}
	case stepOther:
		return []string{flame.OtherName}
	}
	if sep == "" {
		return []string{s.value}
	}
	var parts []string
	for _, p := range strings.Split(s.value, sep) {
		if p = strings.TrimSpace(p); p != "" {
			parts = append(parts, p)
		}
	}
	if len(parts) == 0 {
		return []string{s.value}
	}
	return parts
}

// nodeFor returns the node of t at path, creating the virtual (or other)
// nodes on the way.
func nodeFor(t *flame.Tree, path []step, sep string) flame.NodeID {
	at := flame.Root
	for _, s := range path {
		for _, name := range s.frames(sep) {
			if s.kind == stepOther {
				at = t.Child(at, t.Intern(name), flame.KindOther)
				continue
			}
			at = t.VirtualChild(at, s.label, name)
		}
	}
	return at
}
