// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package labelframes_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/pkg/datasource/labelframes"
	"github.com/emberscope/emberscope/pkg/profile/flame"
)

// fanOutSource has one series per combination of 12 values of a, b and c
// (1,728 series, each worth 1), all of service checkout.
func fanOutSource() *testSource {
	src := &testSource{}
	for a := 0; a < 12; a++ {
		for b := 0; b < 12; b++ {
			for c := 0; c < 12; c++ {
				t := flame.New()
				t.AddValue(t.Child(flame.Root, t.Intern("work"), flame.KindFunction), 1)
				src.series = append(src.series, testSeries{labels: map[string]string{
					"service_name": "checkout", "a": fmt.Sprint("a", a), "b": fmt.Sprint("b", b), "c": fmt.Sprint("c", c),
				}, tree: t})
			}
		}
	}
	return src
}

func TestPlannerCapsLeavesWithANotice(t *testing.T) {
	src := fanOutSource()
	ctx, notices := labelframes.WithNotices(context.Background())
	tree, err := labelframes.Build(ctx, src, stacksRequest(checkout), []string{"a", "b", "c"}, "", labelframes.Options{MaxLeaves: 100})
	require.NoError(t, err)
	require.Equal(t, int64(12*12*12), tree.Total(), "nothing is lost: what is not planned is folded into other")
	require.LessOrEqual(t, src.mergeCalls.Load(), int64(2*100), "the calls stay within twice the cap")
	require.NotEmpty(t, notices.List())
	require.Contains(t, strings.Join(notices.List(), "\n"), "more than 100 upstream calls")
}

func TestPlannerCapsLabelsWithANotice(t *testing.T) {
	src := fanOutSource()
	ctx, notices := labelframes.WithNotices(context.Background())
	_, err := labelframes.Build(ctx, src, stacksRequest(checkout), []string{"a", "b", "c", "service_name", "x"}, "", labelframes.Options{MaxLabels: 2, MaxLeaves: 1000})
	require.NoError(t, err)
	require.Contains(t, strings.Join(notices.List(), "\n"), "at most 2 labels; 5 were asked for")
}
