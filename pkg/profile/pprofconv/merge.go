// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package pprofconv

import (
	"fmt"
	"runtime"
	"sync"

	"github.com/emberscope/emberscope/pkg/profile/flame"
)

// MergeProfiles merges sample type sampleIndex of every pprof profile of ps
// (gzipped or not) into one tree, as one Merger fed every profile would. Up
// to workers goroutines (0 means GOMAXPROCS) each merge a contiguous shard of
// ps into a tree of their own, and the shard trees are merged at the end; the
// result does not depend on workers. A profile that cannot be merged (see
// Merger.Add) fails the whole merge, naming its index.
func MergeProfiles(ps [][]byte, sampleIndex int, workers int) (*flame.Tree, error) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	// A shard under minShard profiles costs more to graft than it saves.
	const minShard = 4
	workers = max(1, min(workers, len(ps)/minShard))
	trees := make([]*flame.Tree, workers)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		shard := ps[w*len(ps)/workers : (w+1)*len(ps)/workers]
		merge := func() {
			t := flame.New()
			m := NewMerger(t)
			first := w * len(ps) / workers
			for i, p := range shard {
				if err := m.Add(p, sampleIndex); err != nil {
					errs[w] = fmt.Errorf("profile %d: %w", first+i, err)
					return
				}
			}
			m.Flush()
			trees[w] = t
		}
		if w == workers-1 {
			merge() // the calling goroutine takes the last shard
			continue
		}
		wg.Go(merge)
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	for _, t := range trees[1:] {
		trees[0].Merge(t)
	}
	return trees[0], nil
}
