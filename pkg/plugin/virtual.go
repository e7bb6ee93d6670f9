package plugin

import (
	"context"

	"github.com/emberscope/emberscope/pkg/flame"
	"github.com/emberscope/emberscope/pkg/source"
)

// virtualTree builds a tree with virtual base frames made from label values.
func (d *Datasource) virtualTree(ctx context.Context, req source.StacksRequest, labels []string, sep string, limit int) (*flame.Tree, error) {
	return nil, userErrorf("frames_from_label / by (...) on flamegraphs is not available yet (pkg/virtual)")
}
