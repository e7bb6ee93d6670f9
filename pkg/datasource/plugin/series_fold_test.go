// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/pkg/datasource/source"
	"github.com/emberscope/emberscope/pkg/profile/model"
)

func TestFoldSeriesKeepsLargestAndSumsTheRest(t *testing.T) {
	t0 := time.Unix(1000, 0)
	mk := func(v string, a, b float64) source.Series {
		return source.Series{
			Labels: model.Labels{{Name: "route", Value: v}},
			Points: []source.Point{{Time: t0, Value: a}, {Time: t0.Add(time.Minute), Value: b}},
		}
	}
	in := []source.Series{mk("a", 1, 1), mk("b", 10, 10), mk("c", 3, 0), mk("d", 5, 5), mk("e", 2, 2)}
	kept, folded := foldSeries(in, 2, []string{"route"})
	require.Equal(t, 3, folded)
	require.Len(t, kept, 3)
	require.Equal(t, "b", kept[0].Labels[0].Value)
	require.Equal(t, "d", kept[1].Labels[0].Value)
	other := kept[2]
	require.Equal(t, model.Labels{{Name: "route", Value: "other"}}, other.Labels)
	require.Equal(t, []source.Point{{Time: t0, Value: 6}, {Time: t0.Add(time.Minute), Value: 3}}, other.Points)

	var sumIn, sumOut float64
	for _, s := range in {
		for _, p := range s.Points {
			sumIn += p.Value
		}
	}
	for _, s := range kept {
		for _, p := range s.Points {
			sumOut += p.Value
		}
	}
	require.Equal(t, sumIn, sumOut, "folding keeps the total")

	same, n := foldSeries(in, 5, []string{"route"})
	require.Zero(t, n)
	require.Len(t, same, 5)
}
