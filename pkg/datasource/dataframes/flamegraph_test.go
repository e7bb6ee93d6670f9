// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package dataframes

import (
	"fmt"
	"testing"

	"github.com/grafana/grafana-plugin-sdk-go/data"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/pkg/profile/flame"
)

func TestFlamegraphNestedSetOrder(t *testing.T) {
	f := Flamegraph(smallTree(), "nanoseconds")
	assert.Equal(t, []row{
		{0, "total", 10, 0},
		{1, "gc", 1, 1},
		{1, "main", 9, 1},
		{2, "parse", 3, 3},
		{2, "work", 5, 2},
		{3, "hash", 3, 3},
	}, rows(t, f))

	require.NotNil(t, f.Meta)
	assert.Equal(t, data.VisType(data.VisTypeFlameGraph), f.Meta.PreferredVisualization)
	assert.Equal(t, "emberscope-flamegraph-panel", f.Meta.PreferredVisualizationPluginID)
	assert.Equal(t, "ns", mustField(t, f, FieldValue).Config.Unit)
	assert.Equal(t, "ns", mustField(t, f, FieldSelf).Config.Unit)
	assert.Equal(t, data.FieldTypeEnum, mustField(t, f, FieldLabel).Type())
	_, vi := f.FieldByName(FieldVirtual)
	assert.Equal(t, -1, vi, "no virtual field without virtual nodes")
	checkGolden(t, "flamegraph_small", f)
}

func TestFlamegraphVirtualFields(t *testing.T) {
	tr := flame.New()
	api := tr.VirtualChild(flame.Root, "service_name", "api")
	tr.InsertStack(api, 4, []int32{tr.Intern("main"), tr.Intern("serve")})
	db := tr.VirtualChild(flame.Root, "service_name", "db")
	tr.InsertStack(db, 2, []int32{tr.Intern("main")})

	f := Flamegraph(tr, "bytes")
	assert.Equal(t, []row{
		{0, "total", 6, 0},
		{1, "api", 4, 0},
		{2, "main", 4, 0},
		{3, "serve", 4, 4},
		{1, "db", 2, 0},
		{2, "main", 2, 2},
	}, rows(t, f))
	virtual := mustField(t, f, FieldVirtual)
	vlabel := mustField(t, f, FieldVirtualLabel)
	var gotV []bool
	var gotL []string
	for i := 0; i < virtual.Len(); i++ {
		gotV = append(gotV, virtual.At(i).(bool))
		gotL = append(gotL, vlabel.At(i).(string))
	}
	assert.Equal(t, []bool{false, true, false, false, true, false}, gotV)
	assert.Equal(t, []string{"", "service_name", "", "", "service_name", ""}, gotL)
	checkGolden(t, "flamegraph_virtual", f)
}

func TestFlamegraphNilTreeIsEmptyFrame(t *testing.T) {
	f := Flamegraph(nil, "count")
	assert.Equal(t, 0, mustField(t, f, FieldLevel).Len())
	assert.Equal(t, "short", mustField(t, f, FieldValue).Config.Unit)
	assert.Len(t, f.Fields, 4)
}

// TestFlamegraphEnumLimit builds trees with exactly MaxEnumNames and one more
// distinct names: the first keeps an enum label, the second switches to strings.
func TestFlamegraphEnumLimit(t *testing.T) {
	build := func(distinct int) *flame.Tree {
		tr := flame.New()
		// the root's "total" is one of the distinct names
		for i := 0; i < distinct-1; i++ {
			tr.InsertStackNames(1, fmt.Sprintf("fn%06d", i))
		}
		return tr
	}
	atLimit := Flamegraph(build(MaxEnumNames), "count")
	label := mustField(t, atLimit, FieldLabel)
	require.Equal(t, data.FieldTypeEnum, label.Type())
	assert.Len(t, label.Config.TypeConfig.Enum.Text, MaxEnumNames)
	assert.Equal(t, "fn065534", labelAt(label, label.Len()-1))

	over := Flamegraph(build(MaxEnumNames+1), "count")
	label = mustField(t, over, FieldLabel)
	require.Equal(t, data.FieldTypeString, label.Type())
	assert.Equal(t, "total", label.At(0))
	assert.Equal(t, "fn065535", label.At(label.Len()-1))
}

// TestFlamegraphEnumCountsUsedNamesOnly: names interned but not on any node
// do not count toward the enum limit nor appear in its text.
func TestFlamegraphEnumCountsUsedNamesOnly(t *testing.T) {
	tr := smallTree()
	tr.Intern("never-used")
	label := mustField(t, Flamegraph(tr, ""), FieldLabel)
	assert.Equal(t, []string{"total", "gc", "main", "parse", "work", "hash"}, label.Config.TypeConfig.Enum.Text)
}

func TestUnitFor(t *testing.T) {
	for in, want := range map[string]string{
		"nanoseconds": "ns", "bytes": "bytes", "count": "short",
		"ns": "ns", "short": "short", "objects": "short", "goroutines": "short",
		"milliseconds": "ms", "": "", "furlongs": "furlongs",
	} {
		assert.Equal(t, want, UnitFor(in), "UnitFor(%q)", in)
	}
	assert.Equal(t, "bytes", UnitOfProfileType("memory:inuse_space:bytes:space:bytes"))
	assert.Equal(t, "ns", UnitOfProfileType("process_cpu:cpu:nanoseconds:cpu:nanoseconds"))
	assert.Equal(t, "", UnitOfProfileType("broken"))
}

// TestFlamegraphSaysWhenCut: a tree cut at maxNodes is marked truncated in
// meta.custom (the panel asks again for a call site it zooms into); a whole
// tree and one whose only "other" holds label values beyond a limit are not.
func TestFlamegraphSaysWhenCut(t *testing.T) {
	cut := Flamegraph(flame.Truncate(smallTree(), 4), "nanoseconds")
	require.NotNil(t, cut.Meta)
	assert.Equal(t, map[string]any{MetaTruncated: true}, cut.Meta.Custom)

	assert.Nil(t, Flamegraph(smallTree(), "nanoseconds").Meta.Custom)

	labels := flame.New()
	api := labels.VirtualChild(flame.Root, "service_name", "api")
	labels.InsertStack(api, 4, []int32{labels.Intern("main")})
	other := labels.Child(flame.Root, labels.Intern(flame.OtherName), flame.KindOther)
	labels.InsertStack(other, 2, []int32{labels.Intern("main")})
	assert.Nil(t, Flamegraph(labels, "bytes").Meta.Custom, "label values beyond the limit are not a cut")
}
