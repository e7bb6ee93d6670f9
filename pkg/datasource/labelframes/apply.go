// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package labelframes

import (
	"fmt"

	"github.com/emberscope/emberscope/pkg/datasource/query"
	"github.com/emberscope/emberscope/pkg/profile/flame"
)

// Apply runs the tree operations of a query on t in order and returns the
// result; t is left untouched. FramesFromLabel is skipped: its frames are
// made by Build. An operation with no tree transform is an error.
func Apply(t *flame.Tree, ops []query.Op) (*flame.Tree, error) {
	for _, op := range ops {
		switch o := op.(type) {
		case query.FramesFromLabel, query.Ignore, query.Hide:
			// applied when the tree was built: virtual frames, and the
			// samples ignore and hide filter (pprof's -ignore, -hide)
		case query.Reverse:
			t = flame.Reverse(t)
		case query.Focus:
			t = flame.Focus(t, o.Pattern)
		case query.DropFrames:
			t = flame.DropFrames(t, o.Pattern)
		case query.TruncateDepth:
			t = flame.TruncateDepth(t, o.Depth)
		default:
			return nil, fmt.Errorf("%s(...) has no flamegraph transform", op.Func())
		}
	}
	return t, nil
}
