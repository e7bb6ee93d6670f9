package frames

import (
	"github.com/grafana/grafana-plugin-sdk-go/data"

	"github.com/emberscope/emberscope/pkg/flame"
)

// DiffFlamegraph returns a diff as a nested-set frame in the shape Grafana's
// diff flame graph reads: the fields of Flamegraph, where value and self are
// the sums of both sides (baseline + comparison), plus
//
//	valueRight int64 the node's total in the comparison (right) tree
//	selfRight  int64 the node's self in the comparison tree
//
// so that the baseline is value - valueRight. Rows follow the union tree in
// flame.Walk order. A nil diff gives a frame with the fields and no rows.
func DiffFlamegraph(d *flame.Diff, unit string) *data.Frame {
	var t *flame.Tree
	if d != nil {
		t = d.Tree()
	}
	fb := newFlameBuilder(t)
	valueRight := make([]int64, len(fb.order))
	selfRight := make([]int64, len(fb.order))
	for i, n := range fb.order {
		valueRight[i], selfRight[i] = d.Right(n)
	}
	fields := data.Fields{
		data.NewField(FieldLevel, nil, fb.level),
		withUnit(data.NewField(FieldValue, nil, fb.value), unit),
		withUnit(data.NewField(FieldSelf, nil, fb.self), unit),
		fb.labelField(),
		withUnit(data.NewField(FieldValueRight, nil, valueRight), unit),
		withUnit(data.NewField(FieldSelfRight, nil, selfRight), unit),
	}
	fields = append(fields, fb.virtualFields()...)
	return flameFrame(fields)
}
