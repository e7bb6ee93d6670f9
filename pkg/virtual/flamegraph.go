package virtual

import (
	"context"
	"fmt"

	"github.com/emberscope/emberscope/pkg/flame"
	"github.com/emberscope/emberscope/pkg/query"
	"github.com/emberscope/emberscope/pkg/source"
)

// Flamegraph answers a parsed query's flamegraph over src: the merged stacks
// of its selection over r, with the virtual frames of its labels (by (...)
// or frames_from_label) at the base, then its other operations applied in
// order, innermost first. maxNodes is passed to every MergeStacks call.
func Flamegraph(ctx context.Context, src source.Source, q *query.Query, r source.TimeRange, maxNodes int64, opts Options) (*flame.Tree, error) {
	if q.ProfileTypeID == "" {
		return nil, fmt.Errorf("flamegraph of %s: no profile type", q)
	}
	req := source.StacksRequest{
		Selection: source.Selection{ProfileTypeID: q.ProfileTypeID, LabelSelector: q.Selector, Range: r},
		MaxNodes:  maxNodes,
	}
	labels, sep := q.VirtualLabels()
	t, err := Build(ctx, src, req, labels, sep, opts)
	if err != nil {
		return nil, err
	}
	return Apply(t, q.Ops)
}

// Apply runs the tree operations of a query on t in order and returns the
// result; t is left untouched. FramesFromLabel is skipped: its frames are
// made by Build. An operation with no tree transform is an error.
func Apply(t *flame.Tree, ops []query.Op) (*flame.Tree, error) {
	for _, op := range ops {
		switch o := op.(type) {
		case query.FramesFromLabel:
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
