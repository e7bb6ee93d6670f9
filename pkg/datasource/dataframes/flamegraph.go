// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package dataframes

import (
	"github.com/grafana/grafana-plugin-sdk-go/data"

	"github.com/emberscope/emberscope/pkg/profile/flame"
)

// PanelPluginID is the id of Emberscope's flamegraph panel, named in the
// frame meta so Grafana picks our panel where it is installed.
const PanelPluginID = "emberscope-flamegraph-panel"

// MaxEnumNames is the most distinct names a label field holds as an enum
// (indices are data.EnumItemIndex, a uint16). Beyond it the label field holds
// plain strings.
const MaxEnumNames = 1 << 16

// Field names of a flamegraph frame, as Grafana's flame graph reads them.
const (
	FieldLevel        = "level"
	FieldValue        = "value"
	FieldSelf         = "self"
	FieldLabel        = "label"
	FieldValueRight   = "valueRight"
	FieldSelfRight    = "selfRight"
	FieldVirtual      = "virtual"
	FieldVirtualLabel = "virtualLabel"
)

// Flamegraph returns t as a nested-set frame: one row per node in depth-first
// order (flame.Walk: root first, children sorted by name) with the fields
//
//	level        int64  depth, root = 0
//	value        int64  the node's total
//	self         int64  the node's self value
//	label        enum   the node's name (plain strings beyond MaxEnumNames names)
//	virtual      bool   whether the node was made from a label value (only when some node is)
//	virtualLabel string the label a virtual node was made from, "" for others (idem)
//
// This is the shape Grafana's built-in Pyroscope datasource returns, so
// Grafana's own flame graph draws it too. unit is the profile type's sample
// unit (see UnitFor); it goes into the config of value and self. A nil tree
// gives a frame with the fields and no rows.
func Flamegraph(t *flame.Tree, unit string) *data.Frame {
	fb := newFlameBuilder(t)
	fields := data.Fields{
		data.NewField(FieldLevel, nil, fb.level),
		withUnit(data.NewField(FieldValue, nil, fb.value), unit),
		withUnit(data.NewField(FieldSelf, nil, fb.self), unit),
		fb.labelField(),
	}
	fields = append(fields, fb.virtualFields()...)
	f := flameFrame(fields)
	if fb.cut {
		f.Meta.Custom = map[string]any{MetaTruncated: true}
	}
	return f
}

// MetaTruncated is the meta.custom key set (true) on a flamegraph frame whose
// tree was cut at maxNodes: some node stands for the children it lost (an
// "other" node). The panel asks again for a call site it zooms into there.
const MetaTruncated = "truncated"

// isCutOther tells whether node id of t stands for the children truncation
// removed. Label values beyond a limit are "other" nodes too, but under the
// root or a virtual node of a tree that has virtual nodes.
func isCutOther(t *flame.Tree, id flame.NodeID, anyVirtual bool) bool {
	if t.Kind(id) != flame.KindOther {
		return false
	}
	if !anyVirtual {
		return true
	}
	p := t.Parent(id)
	return p != flame.Root && t.Kind(p) != flame.KindVirtual
}

func flameFrame(fields data.Fields) *data.Frame {
	f := data.NewFrame("flamegraph", fields...)
	f.Meta = &data.FrameMeta{
		PreferredVisualization:         data.VisTypeFlameGraph,
		PreferredVisualizationPluginID: PanelPluginID,
	}
	return f
}

// withUnit sets the Grafana unit for sampleUnit on f and returns f.
func withUnit(f *data.Field, sampleUnit string) *data.Field {
	if u := UnitFor(sampleUnit); u != "" {
		f.SetConfig(&data.FieldConfig{Unit: u})
	}
	return f
}

// flameBuilder collects the columns of a nested-set frame in walk order.
type flameBuilder struct {
	t     *flame.Tree
	order []flame.NodeID
	level []int64
	value []int64
	self  []int64
	// anyVirtual tells whether some node is virtual.
	anyVirtual bool
	// cut tells whether the tree was cut at maxNodes (see isCutOther).
	cut bool
}

func newFlameBuilder(t *flame.Tree) *flameBuilder {
	fb := &flameBuilder{t: t}
	if t == nil {
		fb.level, fb.value, fb.self = []int64{}, []int64{}, []int64{}
		return fb
	}
	n := t.Len()
	fb.order = make([]flame.NodeID, 0, n)
	fb.level = make([]int64, 0, n)
	fb.value = make([]int64, 0, n)
	fb.self = make([]int64, 0, n)
	t.Walk(func(id flame.NodeID, depth int) {
		fb.order = append(fb.order, id)
		fb.level = append(fb.level, int64(depth))
		fb.value = append(fb.value, t.NodeTotal(id))
		fb.self = append(fb.self, t.Self(id))
		if t.Kind(id) == flame.KindVirtual {
			fb.anyVirtual = true
		}
	})
	for _, id := range fb.order {
		if isCutOther(t, id, fb.anyVirtual) {
			fb.cut = true
			break
		}
	}
	return fb
}

// labelField returns the node names as an enum field whose Text lists the
// names in order of first appearance, or as plain strings when more than
// MaxEnumNames distinct names appear.
func (fb *flameBuilder) labelField() *data.Field {
	if fb.t == nil {
		return enumField(FieldLabel, []data.EnumItemIndex{}, []string{})
	}
	t := fb.t
	slot := make([]int32, len(t.Names()))
	for i := range slot {
		slot[i] = -1
	}
	var text []string
	for _, id := range fb.order {
		name := t.NameID(id)
		if slot[name] < 0 {
			slot[name] = int32(len(text))
			text = append(text, t.NameOf(name))
		}
	}
	if len(text) > MaxEnumNames {
		labels := make([]string, len(fb.order))
		for i, id := range fb.order {
			labels[i] = t.Name(id)
		}
		return data.NewField(FieldLabel, nil, labels)
	}
	idx := make([]data.EnumItemIndex, len(fb.order))
	for i, id := range fb.order {
		idx[i] = data.EnumItemIndex(slot[t.NameID(id)])
	}
	return enumField(FieldLabel, idx, text)
}

func enumField(name string, idx []data.EnumItemIndex, text []string) *data.Field {
	f := data.NewField(name, nil, idx)
	f.SetConfig(&data.FieldConfig{
		TypeConfig: &data.FieldTypeConfig{Enum: &data.EnumFieldConfig{Text: text}},
	})
	return f
}

// virtualFields returns the virtual and virtualLabel fields when some node
// is virtual, and nothing otherwise.
func (fb *flameBuilder) virtualFields() []*data.Field {
	if !fb.anyVirtual {
		return nil
	}
	virtual := make([]bool, len(fb.order))
	labels := make([]string, len(fb.order))
	for i, id := range fb.order {
		if fb.t.Kind(id) == flame.KindVirtual {
			virtual[i] = true
			labels[i] = fb.t.VirtualLabel(id)
		}
	}
	return []*data.Field{
		data.NewField(FieldVirtual, nil, virtual),
		data.NewField(FieldVirtualLabel, nil, labels),
	}
}
