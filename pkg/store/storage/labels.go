// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package storage

import (
	"encoding/binary"
	"sort"
)

// Label is one name=value pair of a series.
type Label struct {
	Name  string
	Value string
}

// Labels is a label set sorted by name.
type Labels []Label

// Sort sorts ls by name.
func (ls Labels) Sort() { sort.Slice(ls, func(a, b int) bool { return ls[a].Name < ls[b].Name }) }

// Get returns the value of name ("" when absent).
func (ls Labels) Get(name string) string {
	for _, l := range ls {
		if l.Name == name {
			return l.Value
		}
	}
	return ""
}

// Key is a canonical encoding of a sorted label set: every name and value
// preceded by its length (uvarint), so that no two label sets share a key
// whatever bytes they hold.
func (ls Labels) Key() string { return ls.key() }

func (ls Labels) key() string {
	n := 0
	for _, l := range ls {
		n += len(l.Name) + len(l.Value) + 4
	}
	b := make([]byte, 0, n)
	for _, l := range ls {
		b = binary.AppendUvarint(b, uint64(len(l.Name)))
		b = append(b, l.Name...)
		b = binary.AppendUvarint(b, uint64(len(l.Value)))
		b = append(b, l.Value...)
	}
	return string(b)
}
