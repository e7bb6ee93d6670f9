package pprofconv

import (
	"fmt"

	"github.com/google/pprof/profile"

	"github.com/emberscope/emberscope/pkg/flame"
)

// ToTree builds the call tree of sample type sampleIndex of p. An index
// outside p's sample types gives an empty tree; AddToTree reports it.
func ToTree(p *profile.Profile, sampleIndex int) *flame.Tree {
	t := flame.New()
	_ = AddToTree(t, p, sampleIndex)
	return t
}

// AddToTree adds the samples of sample type sampleIndex of p to t.
func AddToTree(t *flame.Tree, p *profile.Profile, sampleIndex int) error {
	m := NewMerger(t)
	if err := m.Add(p, sampleIndex); err != nil {
		return err
	}
	m.Flush()
	return nil
}

// Merger adds many profiles to one tree fast: each location of a profile is
// resolved once to a location id shared by all profiles (same frames, same
// id), each distinct stack of location ids is walked into the tree once, and
// values are summed per leaf before they are added to the tree on Flush.
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
	byID    []int32
	funcIDs []int32
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

// Add adds the samples of sample type sampleIndex of p; zero values are skipped.
func (m *Merger) Add(p *profile.Profile, sampleIndex int) error {
	if sampleIndex < 0 || sampleIndex >= len(p.SampleType) {
		return fmt.Errorf("sample index %d out of range: the profile has %d sample types", sampleIndex, len(p.SampleType))
	}
	m.resolveFunctions(p)
	sparse := m.resolveLocations(p)
	byID := m.byID
	for _, s := range p.Sample {
		if sampleIndex >= len(s.Value) {
			continue
		}
		v := s.Value[sampleIndex]
		if v == 0 {
			continue
		}
		m.seq = m.seq[:0]
		h := uint64(14695981039346656037)
		for _, loc := range s.Location {
			var id int32 = -1
			if loc.ID < uint64(len(byID)) {
				id = byID[loc.ID]
			}
			if id < 0 {
				var ok bool
				if id, ok = sparse[loc]; !ok {
					id = m.locationID(loc)
				}
			}
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

// resolveFunctions interns the name of every function of p into m.funcIDs,
// indexed by function ID (-1 when the profile uses sparse ids).
func (m *Merger) resolveFunctions(p *profile.Profile) {
	m.funcIDs = m.funcIDs[:0]
	maxID := uint64(0)
	for _, f := range p.Function {
		maxID = max(maxID, f.ID)
	}
	if maxID > uint64(4*len(p.Function)+1024) {
		return
	}
	m.funcIDs = append(m.funcIDs, make([]int32, maxID+1)...)
	for i := range m.funcIDs {
		m.funcIDs[i] = -1
	}
	for _, f := range p.Function {
		m.funcIDs[f.ID] = m.rawName(f.Name)
	}
}

// rawName returns the tree name id of a function name as the profile spells
// it; shape sections are removed once per distinct spelling.
func (m *Merger) rawName(raw string) int32 {
	if id, ok := m.rawIDs[raw]; ok {
		return id
	}
	name := raw
	if name == "" {
		name = "unknown"
	}
	id := m.tree.Intern(FunctionName(name))
	m.rawIDs[raw] = id
	return id
}

func (m *Merger) lineID(ln profile.Line) int32 {
	if ln.Function != nil && ln.Function.ID < uint64(len(m.funcIDs)) {
		if id := m.funcIDs[ln.Function.ID]; id >= 0 {
			return id
		}
	}
	return m.tree.Intern(lineName(ln))
}

// locationID returns the shared id of loc's frames.
func (m *Merger) locationID(loc *profile.Location) int32 {
	if len(loc.Line) == 1 {
		f := m.lineID(loc.Line[0])
		if int(f) >= len(m.single) {
			m.single = append(m.single, make([]int32, int(f)+1-len(m.single)+len(m.single))...)
		}
		if id := m.single[f]; id != 0 {
			return id - 1
		}
		id := m.addLocation(f)
		m.single[f] = id + 1
		return id
	}
	m.key = m.key[:0]
	var frames [8]int32
	ids := frames[:0]
	if len(loc.Line) == 0 {
		ids = append(ids, m.tree.Intern(addressName(loc)))
	}
	for _, ln := range loc.Line {
		ids = append(ids, m.lineID(ln))
	}
	for _, id := range ids {
		m.key = append(m.key, byte(id), byte(id>>8), byte(id>>16), byte(id>>24))
	}
	if id, ok := m.locIDs[string(m.key)]; ok {
		return id
	}
	id := m.addLocation(ids...)
	m.locIDs[string(m.key)] = id
	return id
}

// resolveLocations resolves every location of p into m.byID (indexed by
// location ID) or, when the profile's ids are sparse, the returned map.
func (m *Merger) resolveLocations(p *profile.Profile) map[*profile.Location]int32 {
	maxID := uint64(0)
	for _, loc := range p.Location {
		maxID = max(maxID, loc.ID)
	}
	m.byID = m.byID[:0]
	if maxID <= uint64(4*len(p.Location)+1024) {
		m.byID = append(m.byID, make([]int32, maxID+1)...)
		for i := range m.byID {
			m.byID[i] = -1
		}
		for _, loc := range p.Location {
			m.byID[loc.ID] = m.locationID(loc)
		}
		return nil
	}
	sparse := make(map[*profile.Location]int32, len(p.Location))
	for _, loc := range p.Location {
		sparse[loc] = m.locationID(loc)
	}
	return sparse
}

type span struct{ off, n int32 }

// addLocation stores the frames of a new shared location and returns its id.
func (m *Merger) addLocation(frames ...int32) int32 {
	m.locSpan = append(m.locSpan, span{int32(len(m.frameArena)), int32(len(frames))})
	m.frameArena = append(m.frameArena, frames...)
	return int32(len(m.locSpan) - 1)
}
