// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package labelframes_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/emberscope/emberscope/pkg/datasource/labelframes"
	"github.com/emberscope/emberscope/pkg/profile/flame/flametest"
)

// BenchmarkVirtualFrames compares a frames_from_label query over N values
// with the plain query of the same data: every value's series holds the
// whole real CPU profile, so the virtual tree is N times the plain one's
// width at its base. Both run on the in-memory test source, so the numbers
// are our planning, merging and grafting cost, not network time.
func BenchmarkVirtualFrames(b *testing.B) {
	p := realCPUProfile(b)
	whole, err := flametest.FromProfile(p, cpuIndex(b, p))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	req := stacksRequest(checkout)
	for _, n := range []int{10, 100} {
		src := &testSource{}
		for i := range n {
			src.series = append(src.series, testSeries{
				labels: map[string]string{"service_name": "checkout", "category": fmt.Sprintf("v%03d", i)},
				tree:   whole,
			})
		}
		b.Run(fmt.Sprintf("plain/values=%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := src.MergeStacks(ctx, req); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("virtual/values=%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := labelframes.Build(ctx, src, req, []string{"category"}, "", labelframes.Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("virtual-limit10/values=%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := labelframes.Build(ctx, src, req, []string{"category"}, "", labelframes.Options{Limit: 10}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
