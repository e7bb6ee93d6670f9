package storage

import (
	"sort"
	"strings"
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

// key is a canonical encoding of a sorted label set.
func (ls Labels) key() string {
	var b strings.Builder
	for _, l := range ls {
		b.WriteString(l.Name)
		b.WriteByte(0xff)
		b.WriteString(l.Value)
		b.WriteByte(0xfe)
	}
	return b.String()
}
