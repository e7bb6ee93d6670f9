// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package pprofconv

import (
	"bytes"
	"fmt"

	"github.com/google/pprof/profile"

	"github.com/emberscope/emberscope/pkg/profile/flame"
	"github.com/emberscope/emberscope/pkg/profile/model"
)

// ToTree builds the call tree of sample type sampleIndex of p. An index
// outside p's sample types gives an empty tree; AddToTree reports it.
func ToTree(p *profile.Profile, sampleIndex int) *flame.Tree {
	t := flame.New()
	_ = AddToTree(t, p, sampleIndex)
	return t
}

// AddToTree adds the samples of sample type sampleIndex of p to t. p goes
// through the one merge path: it is encoded and read back by the Merger's
// decoder, so that a sample that names a location p does not list fails as
// it would in google/pprof's parser.
func AddToTree(t *flame.Tree, p *profile.Profile, sampleIndex int) error {
	var buf bytes.Buffer
	if err := p.WriteUncompressed(&buf); err != nil {
		return fmt.Errorf("encode profile: %w", err)
	}
	m := NewMerger(t)
	if err := m.Add(buf.Bytes(), sampleIndex); err != nil {
		return err
	}
	m.Flush()
	return nil
}

// Merger adds many pprof profiles to one tree fast. It reads the pprof bytes
// itself (see decoded) instead of building a *profile.Profile; each location
// of a profile is resolved once to a location id shared by all profiles (same
// frames, same id), each distinct stack of location ids is walked into the
// tree once, and values are summed per leaf before they are added to the tree
// on Flush.
type Merger struct {
	tree *flame.Tree
	// locIDs maps a location's frame ids (as bytes) to a shared location id;
	// single maps the frame id of one-line locations, the common case.
	locIDs map[string]int32
	// rawIDs maps function names as spelled in profiles to tree name ids.
	rawIDs map[string]int32
	single []int32 // by frame id: shared location id + 1, 0 when not seen
	// locSpan locates each shared location's frame ids, leaf first, in frameArena.
	locSpan    []span
	frameArena []int32
	// stacks finds the tree leaf of a stack of shared location ids.
	stacks stackTable
	// pending sums values per leaf node until Flush; touched lists the
	// nodes with a pending value.
	pending []int64
	touched []flame.NodeID

	// scratch, reused between profiles
	profile decoded
	gunzip  bytes.Buffer
	byID    []int32
	sparse  map[uint64]int32
	funcIDs []int32
	funcs   map[uint64]int32
	key     []byte
	seq     []int32
}

// NewMerger returns a Merger adding to t.
func NewMerger(t *flame.Tree) *Merger {
	return &Merger{
		tree:   t,
		locIDs: make(map[string]int32),
		rawIDs: make(map[string]int32),
	}
}

// Add adds the samples of sample type sampleIndex of a pprof profile
// (gzipped or not); zero values are skipped. It fails, adding nothing, on a
// profile google/pprof would not read: malformed protobuf, a sample whose
// value count differs from the sample types, a sample naming a location the
// profile does not hold, a line naming a function it does not hold.
func (m *Merger) Add(pprof []byte, sampleIndex int) error {
	d := &m.profile
	if err := d.decode(pprof, &m.gunzip); err != nil {
		return err
	}
	if sampleIndex < 0 || sampleIndex >= len(d.sampleTypes) {
		return fmt.Errorf("sample index %d out of range: the profile has %d sample types", sampleIndex, len(d.sampleTypes))
	}
	if err := m.resolveFunctions(d); err != nil {
		return err
	}
	if err := m.resolveLocations(d); err != nil {
		return err
	}
	for i, s := range d.samples {
		if int(s.valN) != len(d.sampleTypes) {
			return fmt.Errorf("sample %d has %d values, the profile has %d sample types", i, s.valN, len(d.sampleTypes))
		}
		for _, lid := range d.sampleLocations(s) {
			if m.location(lid) < 0 {
				return fmt.Errorf("sample %d names location %d, which the profile does not hold", i, lid)
			}
		}
	}
	for _, s := range d.samples {
		v := d.sampleValues(s)[sampleIndex]
		if v == 0 {
			continue
		}
		m.seq = m.seq[:0]
		h := uint64(14695981039346656037)
		for _, lid := range d.sampleLocations(s) {
			id := m.location(lid)
			m.seq = append(m.seq, id)
			h = (h ^ uint64(uint32(id))) * 1099511628211
		}
		n := m.leaf(h)
		if int(n) >= len(m.pending) {
			m.pending = append(m.pending, make([]int64, int(n)+1-len(m.pending)+len(m.pending)/2)...)
		}
		if m.pending[n] == 0 {
			m.touched = append(m.touched, n)
		}
		m.pending[n] += v
	}
	return nil
}

// location returns the shared id of the current profile's location lid, or
// -1 when the profile does not hold it.
func (m *Merger) location(lid uint64) int32 {
	if lid < uint64(len(m.byID)) {
		return m.byID[lid]
	}
	if id, ok := m.sparse[lid]; ok {
		return id
	}
	return -1
}

// Flush adds the summed values to the tree.
func (m *Merger) Flush() {
	for _, n := range m.touched {
		if v := m.pending[n]; v != 0 {
			m.tree.AddValue(n, v)
			m.pending[n] = 0
		}
	}
	m.touched = m.touched[:0]
}

// leaf returns the tree node of the stack in m.seq (leaf first), creating it.
func (m *Merger) leaf(h uint64) flame.NodeID {
	if n, ok := m.stacks.find(h, m.seq); ok {
		return n
	}
	n := flame.Root
	for i := len(m.seq) - 1; i >= 0; i-- {
		sp := m.locSpan[m.seq[i]]
		frames := m.frameArena[sp.off : sp.off+sp.n]
		for j := len(frames) - 1; j >= 0; j-- {
			n = m.tree.Child(n, frames[j], flame.KindFunction)
		}
	}
	m.stacks.insert(h, m.seq, n)
	return n
}

// denseLimit tells whether ids up to maxID are few enough for a slice
// indexed by id (profiles number their ids 1, 2, 3...).
func denseLimit(maxID uint64, n int) bool { return maxID <= uint64(4*n+1024) }

// resolveFunctions interns the name of every function of d, indexed by
// function id in m.funcIDs (or m.funcs when the ids are sparse).
func (m *Merger) resolveFunctions(d *decoded) error {
	maxID := uint64(0)
	for _, f := range d.functions {
		if f.id == 0 {
			return fmt.Errorf("a function has the reserved id 0")
		}
		maxID = max(maxID, f.id)
	}
	m.funcIDs, m.funcs = m.funcIDs[:0], nil
	if !denseLimit(maxID, len(d.functions)) {
		m.funcs = make(map[uint64]int32, len(d.functions))
	} else {
		m.funcIDs = append(m.funcIDs, make([]int32, maxID+1)...)
		for i := range m.funcIDs {
			m.funcIDs[i] = -1
		}
	}
	for _, f := range d.functions {
		id := m.rawName(d.strings[f.name])
		if m.funcs != nil {
			if _, dup := m.funcs[f.id]; dup {
				return fmt.Errorf("two functions have id %d", f.id)
			}
			m.funcs[f.id] = id
			continue
		}
		if m.funcIDs[f.id] >= 0 {
			return fmt.Errorf("two functions have id %d", f.id)
		}
		m.funcIDs[f.id] = id
	}
	return nil
}

// rawName returns the tree name id of a function name as the profile spells
// it; shape sections are removed once per distinct spelling.
func (m *Merger) rawName(raw []byte) int32 {
	if id, ok := m.rawIDs[string(raw)]; ok {
		return id
	}
	id := m.tree.Intern(model.FunctionName(string(raw)))
	m.rawIDs[string(raw)] = id
	return id
}

// function returns the tree name id of function fid of the current profile.
func (m *Merger) function(fid uint64) (int32, bool) {
	if m.funcs != nil {
		id, ok := m.funcs[fid]
		return id, ok
	}
	if fid < uint64(len(m.funcIDs)) && m.funcIDs[fid] >= 0 {
		return m.funcIDs[fid], true
	}
	return 0, false
}

// locationID returns the shared id of loc's frames.
func (m *Merger) locationID(d *decoded, loc decodedLocation) (int32, error) {
	lines := d.locationLines(loc)
	if len(lines) == 1 {
		f, ok := m.function(lines[0])
		if !ok {
			return 0, fmt.Errorf("location %d names function %d, which the profile does not hold", loc.id, lines[0])
		}
		if int(f) >= len(m.single) {
			m.single = append(m.single, make([]int32, int(f)+1-len(m.single)+len(m.single))...)
		}
		if id := m.single[f]; id != 0 {
			return id - 1, nil
		}
		id := m.addLocation(f)
		m.single[f] = id + 1
		return id, nil
	}
	m.key = m.key[:0]
	var frames [8]int32
	ids := frames[:0]
	if len(lines) == 0 {
		ids = append(ids, m.tree.Intern(addressFrame(loc.address)))
	}
	for _, fid := range lines {
		f, ok := m.function(fid)
		if !ok {
			return 0, fmt.Errorf("location %d names function %d, which the profile does not hold", loc.id, fid)
		}
		ids = append(ids, f)
	}
	for _, id := range ids {
		m.key = append(m.key, byte(id), byte(id>>8), byte(id>>16), byte(id>>24))
	}
	if id, ok := m.locIDs[string(m.key)]; ok {
		return id, nil
	}
	id := m.addLocation(ids...)
	m.locIDs[string(m.key)] = id
	return id, nil
}

// resolveLocations resolves every location of d into m.byID (indexed by
// location id) or, when the ids are sparse, m.sparse.
func (m *Merger) resolveLocations(d *decoded) error {
	maxID := uint64(0)
	for _, loc := range d.locations {
		if loc.id == 0 {
			return fmt.Errorf("a location has the reserved id 0")
		}
		maxID = max(maxID, loc.id)
	}
	m.byID, m.sparse = m.byID[:0], nil
	if denseLimit(maxID, len(d.locations)) {
		m.byID = append(m.byID, make([]int32, maxID+1)...)
		for i := range m.byID {
			m.byID[i] = -1
		}
	} else {
		m.sparse = make(map[uint64]int32, len(d.locations))
	}
	for _, loc := range d.locations {
		id, err := m.locationID(d, loc)
		if err != nil {
			return err
		}
		if m.location(loc.id) >= 0 {
			return fmt.Errorf("two locations have id %d", loc.id)
		}
		if m.sparse != nil {
			m.sparse[loc.id] = id
		} else {
			m.byID[loc.id] = id
		}
	}
	return nil
}

type span struct{ off, n int32 }

// addLocation stores the frames of a new shared location and returns its id.
func (m *Merger) addLocation(frames ...int32) int32 {
	m.locSpan = append(m.locSpan, span{int32(len(m.frameArena)), int32(len(frames))})
	m.frameArena = append(m.frameArena, frames...)
	return int32(len(m.locSpan) - 1)
}
