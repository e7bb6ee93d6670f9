// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package parca

import (
	"fmt"

	"github.com/emberscope/emberscope/pkg/profile/flame"
	"github.com/emberscope/emberscope/pkg/profile/model"
)

// treeFromFlamegraph converts a FLAMEGRAPH_TABLE report into a call tree
// with Pyroscope's naming: every node (each inlined line is its own node,
// caller first) is a frame named by its function, Go generic shapes
// removed; the root is "total". A node's self value is its cumulative value
// less its children's.
func treeFromFlamegraph(fg *wireFlamegraph) (*flame.Tree, error) {
	t := flame.New()
	if fg == nil {
		return t, nil
	}
	names := frameNamer{fg: fg, tree: t, ids: map[[2]uint32]int32{}}
	type item struct {
		node  *wireNode
		id    flame.NodeID
		depth int
	}
	stack := []item{{node: &fg.Root, id: flame.Root}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		self := int64(it.node.Cumulative)
		for i := range it.node.Children {
			child := &it.node.Children[i]
			self -= int64(child.Cumulative)
			name, err := names.of(child.Meta)
			if err != nil {
				return nil, fmt.Errorf("parca: flamegraph node at depth %d: %w", it.depth+1, err)
			}
			stack = append(stack, item{node: child, id: t.Child(it.id, name, flame.KindFunction), depth: it.depth + 1})
		}
		// Parca may trim small children; what they held stays with the parent.
		if self > 0 {
			t.AddValue(it.id, self)
		}
	}
	return t, nil
}

// frameNamer resolves and interns the frame names of flamegraph nodes.
type frameNamer struct {
	fg   *wireFlamegraph
	tree *flame.Tree
	// ids caches the interned name per (locationIndex, lineIndex).
	ids map[[2]uint32]int32
}

// of returns the interned frame name of a node.
func (n *frameNamer) of(meta *wireNodeMeta) (int32, error) {
	if meta == nil {
		return 0, fmt.Errorf("node has no meta")
	}
	if meta.LocationIndex == 0 {
		name, err := n.inline(meta)
		if err != nil {
			return 0, err
		}
		return n.tree.Intern(name), nil
	}
	key := [2]uint32{meta.LocationIndex, meta.LineIndex}
	if id, ok := n.ids[key]; ok {
		return id, nil
	}
	if int(meta.LocationIndex) > len(n.fg.Locations) {
		return 0, fmt.Errorf("location index %d is beyond the %d locations of the table",
			meta.LocationIndex, len(n.fg.Locations))
	}
	loc := &n.fg.Locations[meta.LocationIndex-1]
	name, err := n.lineName(loc, meta.LineIndex)
	if err != nil {
		return 0, fmt.Errorf("location %d: %w", meta.LocationIndex, err)
	}
	id := n.tree.Intern(name)
	n.ids[key] = id
	return id, nil
}

// inline names a node whose location is carried in its meta rather than
// in the tables.
func (n *frameNamer) inline(meta *wireNodeMeta) (string, error) {
	if meta.Function != nil {
		return n.functionName(meta.Function)
	}
	if meta.Location != nil {
		return n.lineName(meta.Location, meta.LineIndex)
	}
	return "", fmt.Errorf("node names neither a location index nor a location")
}

// lineName names line i of loc, or loc's address when it has no lines
// (an unsymbolized frame).
func (n *frameNamer) lineName(loc *wireLocation, i uint32) (string, error) {
	if len(loc.Lines) == 0 {
		return fmt.Sprintf("0x%x", uint64(loc.Address)), nil
	}
	if int(i) >= len(loc.Lines) {
		return "", fmt.Errorf("line index %d is beyond its %d lines", i, len(loc.Lines))
	}
	ln := &loc.Lines[i]
	switch {
	case ln.FunctionIndex > 0:
		if int(ln.FunctionIndex) > len(n.fg.Function) {
			return "", fmt.Errorf("function index %d is beyond the %d functions of the table",
				ln.FunctionIndex, len(n.fg.Function))
		}
		return n.functionName(&n.fg.Function[ln.FunctionIndex-1])
	case ln.Function != nil:
		return n.functionName(ln.Function)
	}
	return model.UnknownFunction, nil
}

// functionName names a function by its inline name or its string index.
func (n *frameNamer) functionName(f *wireFunction) (string, error) {
	if f.Name != "" {
		return model.FunctionName(f.Name), nil
	}
	if int(f.NameStringIndex) >= len(n.fg.StringTable) {
		return "", fmt.Errorf("string index %d is beyond the %d strings of the table",
			f.NameStringIndex, len(n.fg.StringTable))
	}
	return model.FunctionName(n.fg.StringTable[f.NameStringIndex]), nil
}
