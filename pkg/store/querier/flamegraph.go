package querier

import (
	"sort"

	querierv1 "github.com/grafana/pyroscope/api/gen/proto/go/querier/v1"

	"github.com/emberscope/emberscope/pkg/flame"
)

// childIndex returns every node's children sorted by name (then kind).
func childIndex(t *flame.Tree) [][]flame.NodeID {
	idx := make([][]flame.NodeID, t.Len())
	for i := 1; i < t.Len(); i++ {
		p := t.Parent(flame.NodeID(i))
		idx[p] = append(idx[p], flame.NodeID(i))
	}
	for _, kids := range idx {
		if len(kids) > 1 {
			sort.Slice(kids, func(a, b int) bool {
				na, nb := t.Name(kids[a]), t.Name(kids[b])
				if na != nb {
					return na < nb
				}
				return t.Kind(kids[a]) < t.Kind(kids[b])
			})
		}
	}
	return idx
}

// keptNodes marks the maxNodes nodes with the largest totals (the root is
// always kept). Ties are broken by node id, and a parent's id is lower than
// its children's, so the kept set is closed under taking parents.
func keptNodes(n int, total func(flame.NodeID) int64, maxNodes int) []bool {
	keep := make([]bool, n)
	keep[0] = true
	if n-1 <= maxNodes {
		for i := range keep {
			keep[i] = true
		}
		return keep
	}
	ids := make([]flame.NodeID, n-1)
	for i := range ids {
		ids[i] = flame.NodeID(i + 1)
	}
	sort.Slice(ids, func(a, b int) bool {
		ta, tb := total(ids[a]), total(ids[b])
		if ta != tb {
			return ta > tb
		}
		return ids[a] < ids[b]
	})
	for _, id := range ids[:maxNodes] {
		keep[id] = true
	}
	return keep
}

// levelWriter lays nodes out in Pyroscope's flamegraph levels: per node
// [x_delta, total, self, name], x relative to the end of the previous node
// of the same level.
type levelWriter struct {
	levels  []*querierv1.Level
	lastEnd []int64
	names   []string
	nameIdx map[string]int64
}

func newLevelWriter() *levelWriter {
	return &levelWriter{names: []string{flame.RootName}, nameIdx: map[string]int64{flame.RootName: 0}}
}

func (w *levelWriter) name(s string) int64 {
	if i, ok := w.nameIdx[s]; ok {
		return i
	}
	i := int64(len(w.names))
	w.names = append(w.names, s)
	w.nameIdx[s] = i
	return i
}

func (w *levelWriter) put(depth int, x int64, name string, values ...int64) {
	for len(w.levels) <= depth {
		w.levels = append(w.levels, &querierv1.Level{})
		w.lastEnd = append(w.lastEnd, 0)
	}
	lv := w.levels[depth]
	lv.Values = append(lv.Values, x-w.lastEnd[depth])
	lv.Values = append(lv.Values, values...)
	lv.Values = append(lv.Values, w.name(name))
	w.lastEnd[depth] = x + values[0]
}

// FlameGraph turns t into Pyroscope's flamegraph, keeping the maxNodes
// largest nodes and folding the rest into one "other" node per parent.
func FlameGraph(t *flame.Tree, maxNodes int) *querierv1.FlameGraph {
	idx := childIndex(t)
	keep := keptNodes(t.Len(), t.NodeTotal, maxNodes)
	w := newLevelWriter()
	var maxSelf int64
	var walk func(n flame.NodeID, depth int, x int64)
	walk = func(n flame.NodeID, depth int, x int64) {
		self := t.Self(n)
		maxSelf = max(maxSelf, self)
		w.put(depth, x, t.Name(n), t.NodeTotal(n), self)
		cx := x
		var other int64
		for _, c := range idx[n] {
			if !keep[c] {
				other += t.NodeTotal(c)
				continue
			}
			walk(c, depth+1, cx)
			cx += t.NodeTotal(c)
		}
		if other != 0 {
			maxSelf = max(maxSelf, other)
			w.put(depth+1, cx, flame.OtherName, other, other)
		}
	}
	walk(flame.Root, 0, 0)
	return &querierv1.FlameGraph{Names: w.names, Levels: w.levels, Total: t.Total(), MaxSelf: maxSelf}
}

// DiffFlameGraph lays out left and right together: per node
// [xL, totalL, selfL, xR, totalR, selfR, name], each x relative to the end of
// the previous node of the same level on its side.
func DiffFlameGraph(left, right *flame.Tree, maxNodes int) *querierv1.FlameGraphDiff {
	u, lv, rv := union(left, right)
	idx := childIndex(u)
	sumTotal := func(n flame.NodeID) int64 { return lv[n].total + rv[n].total }
	keep := keptNodes(u.Len(), sumTotal, maxNodes)
	var levels []*querierv1.Level
	var lastL, lastR []int64
	names := []string{flame.RootName}
	nameIdx := map[string]int64{flame.RootName: 0}
	nameOf := func(s string) int64 {
		if i, ok := nameIdx[s]; ok {
			return i
		}
		nameIdx[s] = int64(len(names))
		names = append(names, s)
		return nameIdx[s]
	}
	var maxSelf int64
	put := func(depth int, xl, xr int64, l, r sides, name string) {
		for len(levels) <= depth {
			levels = append(levels, &querierv1.Level{})
			lastL, lastR = append(lastL, 0), append(lastR, 0)
		}
		levels[depth].Values = append(levels[depth].Values,
			xl-lastL[depth], l.total, l.self, xr-lastR[depth], r.total, r.self, nameOf(name))
		lastL[depth], lastR[depth] = xl+l.total, xr+r.total
		maxSelf = max(maxSelf, l.self, r.self)
	}
	var walk func(n flame.NodeID, depth int, xl, xr int64)
	walk = func(n flame.NodeID, depth int, xl, xr int64) {
		put(depth, xl, xr, lv[n], rv[n], u.Name(n))
		cl, cr := xl, xr
		var other sides
		var otherR sides
		for _, c := range idx[n] {
			if !keep[c] {
				other.total += lv[c].total
				otherR.total += rv[c].total
				continue
			}
			walk(c, depth+1, cl, cr)
			cl += lv[c].total
			cr += rv[c].total
		}
		if other.total != 0 || otherR.total != 0 {
			other.self, otherR.self = other.total, otherR.total
			put(depth+1, cl, cr, other, otherR, flame.OtherName)
		}
	}
	walk(flame.Root, 0, 0, 0)
	return &querierv1.FlameGraphDiff{
		Names: names, Levels: levels, Total: lv[0].total + rv[0].total, MaxSelf: maxSelf,
		LeftTicks: lv[0].total, RightTicks: rv[0].total,
	}
}

type sides struct{ total, self int64 }

// union builds a tree with the shape of both inputs and each node's left and
// right values.
func union(left, right *flame.Tree) (*flame.Tree, []sides, []sides) {
	u := flame.New()
	var lv, rv []sides
	grow := func() {
		for len(lv) < u.Len() {
			lv, rv = append(lv, sides{}), append(rv, sides{})
		}
	}
	add := func(src *flame.Tree, into *[]sides) {
		mapped := make([]flame.NodeID, src.Len())
		for i := 1; i < src.Len(); i++ {
			n := flame.NodeID(i)
			mapped[i] = u.Child(mapped[src.Parent(n)], u.Intern(src.Name(n)), flame.KindFunction)
		}
		grow()
		for i := 0; i < src.Len(); i++ {
			n := flame.NodeID(i)
			(*into)[mapped[i]].total += src.NodeTotal(n)
			(*into)[mapped[i]].self += src.Self(n)
		}
	}
	add(left, &lv)
	add(right, &rv)
	grow()
	return u, lv, rv
}
