// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package model

import (
	"encoding/binary"
	"errors"
	"slices"
	"strings"
)

// Label names Pyroscope reserves on every series (its pkg/model names). A
// selector names a profile type through LabelNameProfileType.
const (
	LabelNameProfileType = "__profile_type__"
	// LabelNameProfileName holds the profile name ("process_cpu", "memory").
	LabelNameProfileName = "__name__"
	LabelNameServiceName = "service_name"
	// LabelNameServiceNamePrivate repeats service_name on every series, as
	// Pyroscope v2 does.
	LabelNameServiceNamePrivate = "__service_name__"
	LabelNameType               = "__type__"
	LabelNameUnit               = "__unit__"
	LabelNamePeriodType         = "__period_type__"
	LabelNamePeriodUnit         = "__period_unit__"
	// LabelNameDelta="false" on a pushed series says the client already sent deltas.
	LabelNameDelta = "__delta__"
	// LabelNameSpy names the client that sent a profile (/ingest's spyName).
	LabelNameSpy = "pyroscope_spy"
)

// Label is one name=value pair of a series.
type Label struct {
	Name  string
	Value string
}

// Labels is the label set of one series.
type Labels []Label

// Get returns the value of name ("" when absent).
func (ls Labels) Get(name string) string {
	for _, l := range ls {
		if l.Name == name {
			return l.Value
		}
	}
	return ""
}

// Sort sorts ls by name, then value.
func (ls Labels) Sort() {
	slices.SortFunc(ls, func(a, b Label) int {
		if c := strings.Compare(a.Name, b.Name); c != 0 {
			return c
		}
		return strings.Compare(a.Value, b.Value)
	})
}

// Key is a map key of ls, in ls's order (sort it first when the order
// varies): each name and value written as its length then its bytes, so no
// two label sets share a key whatever bytes their names and values hold.
func (ls Labels) Key() string {
	n := 0
	for _, l := range ls {
		n += len(l.Name) + len(l.Value) + 2*binary.MaxVarintLen32
	}
	b := make([]byte, 0, n)
	for _, l := range ls {
		b = appendString(b, l.Name)
		b = appendString(b, l.Value)
	}
	return string(b)
}

// TupleKey is a map key of a tuple of strings, in the encoding of
// Labels.Key; SplitKey reads it back.
func TupleKey(values ...string) string {
	n := 0
	for _, v := range values {
		n += len(v) + binary.MaxVarintLen32
	}
	b := make([]byte, 0, n)
	for _, v := range values {
		b = appendString(b, v)
	}
	return string(b)
}

// errBadKey is the error of SplitKey on a string no key function wrote.
var errBadKey = errors.New("model: not a key written by TupleKey or Labels.Key")

// SplitKey returns the strings of a key written by TupleKey (or the names
// and values, alternately, of one written by Labels.Key).
func SplitKey(key string) ([]string, error) {
	var out []string
	for len(key) > 0 {
		n, w := binary.Uvarint([]byte(key[:min(len(key), binary.MaxVarintLen64)]))
		if w <= 0 || uint64(len(key)-w) < n {
			return nil, errBadKey
		}
		out = append(out, key[w:w+int(n)])
		key = key[w+int(n):]
	}
	return out, nil
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// CompareLabels orders label sets label by label, by name then value; a set
// that is a prefix of the other comes first.
func CompareLabels(a, b Labels) int {
	for i := range min(len(a), len(b)) {
		if c := strings.Compare(a[i].Name, b[i].Name); c != 0 {
			return c
		}
		if c := strings.Compare(a[i].Value, b[i].Value); c != 0 {
			return c
		}
	}
	return len(a) - len(b)
}
