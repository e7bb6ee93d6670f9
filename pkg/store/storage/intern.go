// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package storage

// tables are the in-memory copies of the string, stack and series tables.
// Committed entries are only appended to, under DB.mu; a writer stages new
// entries in a txn and publishes them after its batch is durable.
type tables struct {
	strs   []string
	strIDs map[string]uint32

	// stack node i has parent stackParent[i] and frame stackFrame[i]; node 0 is the root.
	stackParent []uint32
	stackFrame  []uint32
	// stackMeta is the file, line and mapping of each stack's leaf frame.
	stackMeta []FrameMeta
	stackIDs  map[stackKey]uint32

	series    []Labels
	seriesIDs map[string]uint32
	postings  map[string]map[string][]uint32
	// seriesMin and seriesMax bound the profile times of each series.
	seriesMin []int64
	seriesMax []int64
}

type stackKey struct {
	parent, frame uint32
	meta          FrameMeta
}

// FrameMeta is where a frame is: string ids + 1 of its file, mapping file
// and build id (0: none) and its line. Stacks stored before frames had
// them have none.
type FrameMeta struct {
	File, MapFile, BuildID uint32
	Line                   int64
	// Inlined: the frame and its parent are lines of one pprof location.
	Inlined bool
	// StartLine is the first line of the frame's function (0: unknown).
	StartLine int64
}

// encodeStack is a stack table value: parent and frame string id, then the
// frame's file, line, mapping file, build id, flags (1: inlined) and its
// function's start line when it has any.
func encodeStack(parent, frame uint32, m FrameMeta) []byte {
	b := putUvarint(putUvarint(nil, uint64(parent)), uint64(frame))
	if m == (FrameMeta{}) {
		return b
	}
	b = putUvarint(b, uint64(m.File))
	b = putVarint(b, m.Line)
	b = putUvarint(b, uint64(m.MapFile))
	b = putUvarint(b, uint64(m.BuildID))
	flags := uint64(0)
	if m.Inlined {
		flags |= 1
	}
	b = putUvarint(b, flags)
	return putVarint(b, m.StartLine)
}

func newTables() *tables {
	return &tables{
		strIDs:      make(map[string]uint32),
		stackParent: []uint32{0},
		stackFrame:  []uint32{0},
		stackMeta:   []FrameMeta{{}},
		stackIDs:    make(map[stackKey]uint32),
		seriesIDs:   make(map[string]uint32),
		postings:    make(map[string]map[string][]uint32),
	}
}

func (t *tables) addString(s string) uint32 {
	id := uint32(len(t.strs))
	t.strs = append(t.strs, s)
	t.strIDs[s] = id
	return id
}

func (t *tables) addStack(parent, frame uint32, m FrameMeta) uint32 {
	id := uint32(len(t.stackParent))
	t.stackParent = append(t.stackParent, parent)
	t.stackFrame = append(t.stackFrame, frame)
	t.stackMeta = append(t.stackMeta, m)
	t.stackIDs[stackKey{parent, frame, m}] = id
	return id
}

func (t *tables) addSeries(ls Labels) uint32 {
	id := uint32(len(t.series))
	t.series = append(t.series, ls)
	t.seriesIDs[ls.Key()] = id
	t.seriesMin = append(t.seriesMin, 1<<63-1)
	t.seriesMax = append(t.seriesMax, -1<<63)
	for _, l := range ls {
		vals := t.postings[l.Name]
		if vals == nil {
			vals = make(map[string][]uint32)
			t.postings[l.Name] = vals
		}
		vals[l.Value] = append(vals[l.Value], id)
	}
	return id
}

func (t *tables) seenAt(series uint32, ts int64) {
	t.seriesMin[series] = min(t.seriesMin[series], ts)
	t.seriesMax[series] = max(t.seriesMax[series], ts)
}

// txn stages new strings, stacks and series of one Append on top of the
// committed tables.
type txn struct {
	base      *tables
	strs      []string
	strIDs    map[string]uint32
	stacks    []stackKey
	stackIDs  map[stackKey]uint32
	series    []Labels
	seriesIDs map[string]uint32
	batch     *batchWriter
}

func newTxn(base *tables, b *batchWriter) *txn {
	return &txn{
		base:      base,
		strIDs:    make(map[string]uint32),
		stackIDs:  make(map[stackKey]uint32),
		seriesIDs: make(map[string]uint32),
		batch:     b,
	}
}

func (x *txn) str(s string) uint32 {
	if id, ok := x.base.strIDs[s]; ok {
		return id
	}
	if id, ok := x.strIDs[s]; ok {
		return id
	}
	id := uint32(len(x.base.strs) + len(x.strs))
	x.strs = append(x.strs, s)
	x.strIDs[s] = id
	x.batch.set(idKey(tableString, id), []byte(s))
	return id
}

func (x *txn) stack(parent, frame uint32) uint32 { return x.stackAt(parent, frame, FrameMeta{}) }

// stackAt is the stack of a frame with its file, line and mapping.
func (x *txn) stackAt(parent, frame uint32, m FrameMeta) uint32 {
	k := stackKey{parent, frame, m}
	if id, ok := x.base.stackIDs[k]; ok {
		return id
	}
	if id, ok := x.stackIDs[k]; ok {
		return id
	}
	id := uint32(len(x.base.stackParent) + len(x.stacks))
	x.stacks = append(x.stacks, k)
	x.stackIDs[k] = id
	x.batch.set(idKey(tableStack, id), encodeStack(parent, frame, m))
	return id
}

func (x *txn) seriesID(ls Labels) uint32 {
	key := ls.Key()
	if id, ok := x.base.seriesIDs[key]; ok {
		return id
	}
	if id, ok := x.seriesIDs[key]; ok {
		return id
	}
	id := uint32(len(x.base.series) + len(x.series))
	x.series = append(x.series, ls)
	x.seriesIDs[key] = id
	rec := putUvarint(nil, uint64(len(ls)))
	for _, l := range ls {
		rec = putUvarint(rec, uint64(x.str(l.Name)))
		rec = putUvarint(rec, uint64(x.str(l.Value)))
	}
	x.batch.set(idKey(tableSeries, id), rec)
	return id
}

// publish appends the staged entries to the committed tables; the caller holds DB.mu.
func (x *txn) publish() {
	for _, s := range x.strs {
		x.base.addString(s)
	}
	for _, k := range x.stacks {
		x.base.addStack(k.parent, k.frame, k.meta)
	}
	for _, ls := range x.series {
		x.base.addSeries(ls)
	}
}
