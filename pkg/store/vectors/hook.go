// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Package vectors computes each profile's novelty vector at ingest, keeps
// it beside the profile (storage's 'V' table), samples profiles that match
// their series' recent pattern when asked, and answers the vectors of a
// selection over Emberscope's vectors service (package noveltyv1).
//
// A record is: u8 flags (bit 0: sampled), varint total, then the vector's
// binary form (package novelty) whose kept features refer to the store's
// string ids (by function) or stack ids (by stack).
package vectors

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/emberscope/emberscope/pkg/profile/novelty"
	"github.com/emberscope/emberscope/pkg/store/storage"
)

// Sampling configures sampling at ingest. A profile whose surprise level
// against its series' last profiles (novelty.Result.Level, the query's
// surprise score before it is clamped at 0) is at or below Level keeps its
// labels, total and vector but not its stacks, except the first profile
// of each Window, which is kept whole; profiles above Level, and every
// profile while the series warms up, are kept whole.
type Sampling struct {
	Enabled bool
	// Level is the bar (default novelty.DefaultSamplingLevel, −0.6): lower
	// keeps more profiles whole. It sits below the alarm's threshold, since
	// keeping the stacks of an unchanged profile costs only disk, and was
	// chosen so that every change of 10 points or more of the tuning
	// programs is kept (README). Zero takes the default.
	Level float64
	// Window is the period in which a series' first profile is kept whole
	// (default 10 minutes, by profile time).
	Window time.Duration
}

// DefaultSamplingWindow is the default of Sampling.Window.
const DefaultSamplingWindow = 10 * time.Minute

// Options configure a Hook.
type Options struct {
	Params   novelty.Params
	Sampling Sampling
}

// Hook is the storage.VectorHook of the store.
type Hook struct {
	opts    Options
	builder *novelty.Builder
	// stackHash caches the StackHash chain of stack ids (by stack), names
	// the NameHash of string ids.
	stackHash map[uint32]uint64
	names     map[uint32]uint64
	// onStack is the functions seen on the stack being walked.
	onStack map[uint32]bool
	series  map[uint32]*history
	calls   int
	stats   Stats
}

// Stats count what the hook did.
type Stats struct {
	Profiles, Sampled int
	// VectorBytes is the size of the records written.
	VectorBytes int
}

// history is what sampling remembers of a series: its scorer (the last
// profiles' vectors), the window of its last profile kept whole, and when
// it was last seen.
type history struct {
	scorer   *novelty.Series
	window   int64
	lastSeen int64
}

// New returns a Hook; zero options take the defaults.
func New(opts Options) (*Hook, error) {
	p, err := opts.Params.WithDefaults()
	if err != nil {
		return nil, err
	}
	opts.Params = p
	s := &opts.Sampling
	if s.Window == 0 {
		s.Window = DefaultSamplingWindow
	}
	if s.Window < 0 {
		return nil, fmt.Errorf("vectors: sampling window must be positive, not %s", s.Window)
	}
	if s.Level == 0 {
		s.Level = novelty.DefaultSamplingLevel
	}
	if math.IsNaN(s.Level) || math.IsInf(s.Level, 0) {
		return nil, fmt.Errorf("vectors: sampling level must be a finite surprise level, not %v", s.Level)
	}
	b, err := novelty.NewBuilder(p)
	if err != nil {
		return nil, err
	}
	return &Hook{opts: opts, builder: b, stackHash: map[uint32]uint64{0: novelty.StackRoot}, names: map[uint32]uint64{}, onStack: map[uint32]bool{}, series: map[uint32]*history{}}, nil
}

// Options returns the options in effect.
func (h *Hook) Options() Options { return h.opts }

// Stats returns what the hook did since New. Call it between appends (the
// hook is not safe for concurrent use; the store calls it under its append
// lock).
func (h *Hook) Stats() Stats { return h.stats }

// Vector implements storage.VectorHook.
func (h *Hook) Vector(p *storage.IngestProfile) ([]byte, bool) {
	v := h.vectorOf(p)
	if v.IsZero() {
		return nil, false
	}
	strip := h.opts.Sampling.Enabled && h.sample(p.Series, p.Time, &v)
	var total int64
	for _, x := range p.Values {
		total += x
	}
	flags := byte(0)
	if strip {
		flags = 1
	}
	rec := binary.AppendVarint([]byte{flags}, total)
	rec = v.AppendBinary(rec, func(e novelty.Entry) uint64 { return e.Ref })
	h.stats.Profiles++
	h.stats.VectorBytes += len(rec)
	if strip {
		h.stats.Sampled++
	}
	return rec, strip
}

func (h *Hook) vectorOf(p *storage.IngestProfile) novelty.Vector {
	b := h.builder
	b.Reset()
	for i, st := range p.Stacks {
		v := float64(p.Values[i])
		if h.opts.Params.By == novelty.ByStack {
			b.AddRef(h.stackHashOf(p.Tables, st), uint64(st), v)
			continue
		}
		f := p.Tables.Frame(st)
		b.AddRef(h.nameHash(p.Tables, f), uint64(f), v)
		// Inclusive: the value counts for every function on the stack,
		// once per function however often it recurses.
		clear(h.onStack)
		for s := st; s != 0; s = p.Tables.Parent(s) {
			f := p.Tables.Frame(s)
			if !h.onStack[f] {
				h.onStack[f] = true
				b.AddGroupRef(h.nameHash(p.Tables, f), uint64(f), v)
			}
		}
	}
	return b.Vector()
}

func (h *Hook) nameHash(t storage.StackTables, id uint32) uint64 {
	x, ok := h.names[id]
	if !ok {
		x = novelty.NameHash(t.String(id))
		h.names[id] = x
	}
	return x
}

// stackHashOf is the StackHash chain of a stack, cached per stack id.
func (h *Hook) stackHashOf(t storage.StackTables, st uint32) uint64 {
	if x, ok := h.stackHash[st]; ok {
		return x
	}
	x := novelty.StackHash(h.stackHashOf(t, t.Parent(st)), h.nameHash(t, t.Frame(st)))
	h.stackHash[st] = x
	return x
}

// sample decides whether a profile of series at time t with vector v keeps
// only its total: it does when the series is warm, v's surprise level
// against its last profiles is at most the sampling level, and a profile
// of t's window was already kept whole.
func (h *Hook) sample(series uint32, t int64, v *novelty.Vector) bool {
	h.calls++
	if h.calls%1024 == 0 {
		h.forget(t)
	}
	s := h.series[series]
	if s == nil {
		scorer, err := novelty.NewSeries(novelty.Options{Method: novelty.MethodSurprise})
		if err != nil {
			// New checked these options.
			panic(err)
		}
		s = &history{scorer: scorer, window: -1}
		h.series[series] = s
	}
	s.lastSeen = t
	warm := s.scorer.Seen() >= s.scorer.Options().WarmUp
	r, _ := s.scorer.Score(*v)
	window := t / int64(h.opts.Sampling.Window)
	if !warm || r.Level > h.opts.Sampling.Level || s.window != window {
		s.window = window
		return false
	}
	return true
}

// forget drops the series not seen for two windows before t, so
// sampling's memory follows the active series.
func (h *Hook) forget(t int64) {
	horizon := t - 2*int64(h.opts.Sampling.Window)
	for id, s := range h.series {
		if s.lastSeen < horizon {
			delete(h.series, id)
		}
	}
}

// Record is a decoded vector record.
type Record struct {
	Sampled bool
	Total   int64
	Vector  novelty.Vector
}

var errRecord = errors.New("vectors: corrupt record")

// decodeRecord decodes rec; name resolves a kept feature's reference.
func decodeRecord(rec []byte, name func(ref uint64) (string, error)) (Record, error) {
	if len(rec) < 2 {
		return Record{}, errRecord
	}
	r := Record{Sampled: rec[0]&1 == 1}
	total, n := binary.Varint(rec[1:])
	if n <= 0 {
		return Record{}, errRecord
	}
	r.Total = total
	v, err := novelty.Decode(rec[1+n:], name)
	if err != nil {
		return Record{}, err
	}
	r.Vector = v
	return r, nil
}
