// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package model

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestLabelsKeyTellsEverySetApart: label sets whose names and values hold
// the separators other encodings use still get distinct keys.
func TestLabelsKeyTellsEverySetApart(t *testing.T) {
	sets := []Labels{
		nil,
		{{Name: "a", Value: ""}},
		{{Name: "a", Value: "b"}},
		{{Name: "a", Value: "b,c=d"}},
		{{Name: "a", Value: "b"}, {Name: "c", Value: "d"}},
		{{Name: "a\x00b", Value: ""}},
		{{Name: "a", Value: "\x00b"}},
		{{Name: "a", Value: "\xff"}, {Name: "\xfe", Value: ""}},
		{{Name: "a\xff", Value: "\xfe"}},
		{{Name: "", Value: "a"}},
	}
	seen := map[string]int{}
	for i, ls := range sets {
		k := ls.Key()
		j, dup := seen[k]
		require.False(t, dup, "sets %d and %d share a key", i, j)
		seen[k] = i
	}
}

// TestTupleKeyRoundTrips reads back what TupleKey wrote, empty values and
// bytes that are not UTF-8 included.
func TestTupleKeyRoundTrips(t *testing.T) {
	for _, tuple := range [][]string{{}, {""}, {"", ""}, {"eu-north", "car"}, {"a\xffb", "\x00"}, {string(make([]byte, 300))}} {
		got, err := SplitKey(TupleKey(tuple...))
		require.NoError(t, err)
		require.Equal(t, len(tuple), len(got))
		for i := range tuple {
			require.Equal(t, tuple[i], got[i])
		}
	}
	require.NotEqual(t, TupleKey("a", ""), TupleKey("a"))
	_, err := SplitKey("\x05ab")
	require.Error(t, err)
}

func TestLabelsGetAndSort(t *testing.T) {
	ls := Labels{{Name: "region", Value: "eu"}, {Name: "__name__", Value: "process_cpu"}, {Name: "app", Value: "x"}}
	ls.Sort()
	require.Equal(t, Labels{{Name: "__name__", Value: "process_cpu"}, {Name: "app", Value: "x"}, {Name: "region", Value: "eu"}}, ls)
	require.Equal(t, "eu", ls.Get("region"))
	require.Equal(t, "", ls.Get("zone"))
}
