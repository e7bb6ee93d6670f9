// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package novelty

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
)

// Version is the version of the vector definition below. It is written
// into every encoded vector; vectors of different versions or parameters
// are never compared.
//
// Version 2 adds the inclusive groups (Vector.Groups), version 3 the
// sample count (Vector.Samples); older vectors still decode.
const Version = 3

// Defaults of Params.
const (
	DefaultK = 32
	DefaultD = 256
)

// By says what a vector's features are.
type By uint8

const (
	// ByFunction: one feature per function name, weighted by its self value
	// summed over every stack it is the leaf of.
	ByFunction By = iota
	// ByStack: one feature per whole stack (root to leaf), weighted by the
	// stack's self value.
	ByStack
)

func (b By) String() string {
	if b == ByStack {
		return "stack"
	}
	return "function"
}

// ParseBy reads "function" (or "") and "stack".
func ParseBy(s string) (By, error) {
	switch s {
	case "", "function", "functions":
		return ByFunction, nil
	case "stack", "stacks":
		return ByStack, nil
	}
	return 0, fmt.Errorf("novelty: features by %q: want function or stack", s)
}

// Params define a vector: K features kept exactly, the rest hashed into D
// buckets, features by function or by stack. Zero fields take the defaults.
type Params struct {
	K  int
	D  int
	By By
}

// WithDefaults fills zero fields and checks the rest.
func (p Params) WithDefaults() (Params, error) {
	if p.K == 0 {
		p.K = DefaultK
	}
	if p.D == 0 {
		p.D = DefaultD
	}
	switch {
	case p.K < 0 || p.K > 4096:
		return p, fmt.Errorf("novelty: K (features kept exactly) must be 1..4096, not %d", p.K)
	case p.D < 1 || p.D > 65536:
		return p, fmt.Errorf("novelty: D (hash buckets) must be 1..65536, not %d", p.D)
	case p.By > ByStack:
		return p, fmt.Errorf("novelty: unknown feature kind %d", p.By)
	}
	return p, nil
}

// Entry is one exactly kept feature: its key (a function name, or a stack's
// frames joined by ";" root first), its hash (NameHash, or the StackHash
// chain) and its weight in the unit vector.
type Entry struct {
	Key    string
	Hash   uint64
	Weight float32
	// Ref is the builder's handle of the feature (AddRef), which a store
	// writes instead of the key; 0 when unset.
	Ref uint64
}

// Vector is the compact summary of one profile (version 1):
//
//	s_f     = self(f) / Σ_g |self(g)|                       share of feature f
//	E       = the K features of largest |s_f| (ties by key)  kept exactly
//	r_i     = Σ_{f∉E, h(f) mod D = i} σ(f)·s_f               the rest, feature-hashed
//	v       = (s_E, r) / ‖(s_E, r)‖₂                          L2-normalised
//
// h is the feature's hash (FNV-1a 64 of a function name; for a stack, the
// StackHash chain of its frames) and σ(f) = ±1 its top bit. Scale = ‖(s_E, r)‖₂
// recovers the shares (s_f = Scale·w_f). The zero Vector (no Exact, no
// Buckets) stands for an empty profile.
type Vector struct {
	Params Params
	// Exact are the kept features, sorted by Hash.
	Exact []Entry
	// Buckets are the D hashed buckets (nil when all are zero).
	Buckets []float32
	Scale   float32
	// Groups (version 2, by function) are the DefaultGroups functions of
	// largest inclusive share — a function with all it calls — below
	// groupMax, sorted by Hash, Weight the share itself (0..1).
	Groups []Entry
	// Samples (version 3) is how many samples the profile holds: its total
	// divided by the greatest common divisor of its values (a CPU
	// profile's values are multiples of its sampling period), at most
	// MaxSamples; 0 when unknown (older vectors, fractional values). The
	// surprise score reads a profile's sampling noise from it.
	Samples float64
}

// MaxSamples bounds Vector.Samples: values that are not counts of
// samples (bytes of a heap profile, whose divisor is often 1) would
// otherwise claim almost no sampling noise.
const MaxSamples = 1 << 20

// IsZero reports whether v is the vector of an empty profile.
func (v *Vector) IsZero() bool { return len(v.Exact) == 0 && v.Buckets == nil }

// Share returns the share of key in the profile: exact for a kept feature,
// else the hashed estimate σ·r (clamped at 0), which is the share plus what
// collided into its bucket.
func (v *Vector) Share(key string) float64 {
	h := KeyHash(v.Params.By, key)
	if i, ok := v.find(h); ok {
		return float64(v.Exact[i].Weight) * float64(v.Scale)
	}
	return max(0, v.bucketEstimate(h)*float64(v.Scale))
}

func (v *Vector) find(h uint64) (int, bool) {
	return slices.BinarySearchFunc(v.Exact, h, func(e Entry, h uint64) int { return cmp.Compare(e.Hash, h) })
}

// bucketEstimate is σ(h)·r[h mod D] in unit-vector weight.
func (v *Vector) bucketEstimate(h uint64) float64 {
	if v.Buckets == nil {
		return 0
	}
	i, sign := bucket(h, len(v.Buckets))
	return sign * float64(v.Buckets[i])
}

// Cosine returns the cosine similarity of a and b estimated from their
// compact forms: exact products for features both keep, a kept feature
// against the other's bucket for features one keeps, and the bucket dot
// product for the rest. Vectors of different parameters, and zero vectors,
// have similarity 0.
func Cosine(a, b *Vector) float64 {
	if a.IsZero() || b.IsZero() || a.Params != b.Params {
		return 0
	}
	var dot float64
	i, j := 0, 0
	for i < len(a.Exact) || j < len(b.Exact) {
		switch {
		case j == len(b.Exact) || (i < len(a.Exact) && a.Exact[i].Hash < b.Exact[j].Hash):
			dot += float64(a.Exact[i].Weight) * b.bucketEstimate(a.Exact[i].Hash)
			i++
		case i == len(a.Exact) || b.Exact[j].Hash < a.Exact[i].Hash:
			dot += float64(b.Exact[j].Weight) * a.bucketEstimate(b.Exact[j].Hash)
			j++
		default:
			dot += float64(a.Exact[i].Weight) * float64(b.Exact[j].Weight)
			i++
			j++
		}
	}
	if a.Buckets != nil && b.Buckets != nil {
		for k := range a.Buckets {
			dot += float64(a.Buckets[k]) * float64(b.Buckets[k])
		}
	}
	return min(max(dot, -1), 1)
}

// Distance is 1 − Cosine(a, b), clamped to 0..1.
func Distance(a, b *Vector) float64 { return min(max(1-Cosine(a, b), 0), 1) }

// FNV-1a 64 (as hash/fnv's New64a, over a string without allocating).
const (
	fnvOffset64 = 14695981039346656037
	fnvPrime64  = 1099511628211
)

func fnv64a(s string) uint64 { return fnvAdd(fnvOffset64, s) }

// fnvAdd continues an FNV-1a 64 hash with s.
func fnvAdd(h uint64, s string) uint64 {
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= fnvPrime64
	}
	return h
}

// bucket is the bucket (h mod d) and sign (top bit) of a feature hash.
func bucket(h uint64, d int) (int, float64) {
	sign := 1.0
	if h>>63 == 1 {
		sign = -1
	}
	return int(h % uint64(d)), sign
}

// Builder accumulates the self values of one profile's features and makes
// its Vector. The zero Builder is not usable: call NewBuilder.
type Builder struct {
	p    Params
	vals map[uint64]float64
	keys map[uint64]string
	refs map[uint64]uint64
	// inclusive values per function (AddGroup, AddGroupRef)
	gvals map[uint64]float64
	gkeys map[uint64]string
	grefs map[uint64]uint64
	// buffers FromTree reuses by stack
	nameBuf, hashBuf []uint64
	featBuf          []feat
	// samples counts the values added: their sum and greatest common
	// divisor (Vector.Samples); fractional marks a value that is not an
	// integer.
	sum, divisor int64
	fractional   bool
}

// NewBuilder returns a Builder for p (defaults filled in).
func NewBuilder(p Params) (*Builder, error) {
	p, err := p.WithDefaults()
	if err != nil {
		return nil, err
	}
	return &Builder{p: p, vals: map[uint64]float64{}, keys: map[uint64]string{}, refs: map[uint64]uint64{},
		gvals: map[uint64]float64{}, gkeys: map[uint64]string{}, grefs: map[uint64]uint64{}}, nil
}

// Params returns the builder's parameters.
func (b *Builder) Params() Params { return b.p }

// Reset empties the builder for the next profile.
func (b *Builder) Reset() {
	clear(b.vals)
	clear(b.keys)
	clear(b.refs)
	clear(b.gvals)
	clear(b.gkeys)
	clear(b.grefs)
	b.sum, b.divisor, b.fractional = 0, 0, false
}

// count notes a self value for Vector.Samples.
func (b *Builder) count(v float64) {
	a := math.Abs(v)
	if a != math.Trunc(a) || a >= 1<<53 {
		b.fractional = true
		return
	}
	b.sum += int64(a)
	b.divisor = gcd(b.divisor, int64(a))
}

// samples is Vector.Samples of what was counted.
func (b *Builder) samples() float64 {
	if b.fractional || b.divisor == 0 {
		return 0
	}
	return min(float64(b.sum/b.divisor), MaxSamples)
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// AddGroup adds v to the inclusive value of function key: the value of a
// stack the function is on (once per stack, however often it recurses).
func (b *Builder) AddGroup(key string, v float64) {
	h := fnv64a(key)
	if _, ok := b.gkeys[h]; !ok {
		b.gkeys[h] = key
	}
	b.gvals[h] += v
}

// AddGroupRef is AddGroup for a function known by the caller's ref and
// its NameHash h (Entry.Ref set, Key empty, as AddRef).
func (b *Builder) AddGroupRef(h, ref uint64, v float64) {
	if _, ok := b.grefs[h]; !ok {
		b.grefs[h] = ref
	}
	b.gvals[h] += v
}

// Add adds self value v to the feature key.
func (b *Builder) Add(key string, v float64) { b.AddHashed(KeyHash(b.p.By, key), key, v) }

// KeyHash is the feature hash of a key: NameHash of a function name, the
// StackHash chain of a stack's ";"-joined frames.
func KeyHash(by By, key string) uint64 {
	if by != ByStack {
		return fnv64a(key)
	}
	h := StackRoot
	for len(key) > 0 {
		i := strings.IndexByte(key, ';')
		if i < 0 {
			i = len(key)
		}
		h = StackHash(h, fnv64a(key[:i]))
		key = key[min(i+1, len(key)):]
	}
	return h
}

// AddRef adds v to the feature of hash h, known by the caller's ref
// (a store's string or stack id) instead of a key: vectors built this way
// have Entry.Ref set and Entry.Key empty, for AppendBinary.
func (b *Builder) AddRef(h, ref uint64, v float64) {
	if v == 0 {
		return
	}
	if _, ok := b.refs[h]; !ok {
		b.refs[h] = ref
	}
	b.vals[h] += v
	b.count(v)
}

// AddHashed adds v to the feature of hash h, named key.
func (b *Builder) AddHashed(h uint64, key string, v float64) {
	if v == 0 {
		return
	}
	if _, ok := b.keys[h]; !ok {
		b.keys[h] = key
	}
	b.vals[h] += v
	b.count(v)
}

// Vector returns the vector of what was added.
func (b *Builder) Vector() Vector {
	all := make([]feat, 0, len(b.vals))
	for h, x := range b.vals {
		all = append(all, feat{h: h, s: x})
	}
	v := build(b.p, all, func(f feat) string { return b.keys[f.h] })
	if !v.IsZero() {
		v.Samples = b.samples()
	}
	for i := range v.Exact {
		v.Exact[i].Ref = b.refs[v.Exact[i].Hash]
	}
	if !v.IsZero() && len(b.gvals) > 0 {
		var total float64
		for _, x := range b.vals {
			total += math.Abs(x)
		}
		gs := make([]feat, 0, len(b.gvals))
		for h, x := range b.gvals {
			gs = append(gs, feat{h: h, s: x / total})
		}
		v.Groups = topGroups(gs, DefaultGroups, func(h uint64) string { return b.gkeys[h] })
		for i := range v.Groups {
			v.Groups[i].Ref = b.grefs[v.Groups[i].Hash]
		}
	}
	return v
}

// topGroups keeps the g groups of largest share below groupMax, sorted by
// hash, named by name.
func topGroups(gs []feat, g int, name func(h uint64) string) []Entry {
	keep := gs[:0]
	for _, f := range gs {
		if f.s != 0 && math.Abs(f.s) < groupMax {
			keep = append(keep, f)
		}
	}
	topFirst(keep, g)
	k := min(g, len(keep))
	if k == 0 {
		return nil
	}
	out := make([]Entry, k)
	for i, f := range keep[:k] {
		out[i] = Entry{Key: name(f.h), Hash: f.h, Weight: float32(f.s)}
	}
	sortExact(out)
	return out
}

// build makes the vector of features with self values (hashes distinct):
// shares, the K largest kept exactly (ties by hash) and named by name, the
// rest hashed into buckets.
func build(p Params, all []feat, name func(f feat) string) Vector {
	var total float64
	for _, f := range all {
		total += math.Abs(f.s)
	}
	if total == 0 {
		return Vector{Params: p}
	}
	for i := range all {
		all[i].s /= total
	}
	topFirst(all, p.K)
	k := min(p.K, len(all))
	acc := make([]float64, p.D)
	for _, f := range all[k:] {
		i, sign := bucket(f.h, p.D)
		acc[i] += sign * f.s
	}
	exact := make([]float64, k)
	es := make([]Entry, k)
	for i, f := range all[:k] {
		exact[i] = f.s
		es[i] = Entry{Key: name(f), Hash: f.h}
	}
	return assemble(p, es, exact, acc)
}

// byShare orders features by decreasing |share|, ties by hash.
func byShare(x, y feat) int {
	if c := cmp.Compare(math.Abs(y.s), math.Abs(x.s)); c != 0 {
		return c
	}
	return cmp.Compare(x.h, y.h)
}

// feat is a feature's hash and share while a vector is built.
type feat struct {
	h uint64
	s float64
	// ref is the caller's handle of the feature (a tree node by stack).
	ref int32
}

// assemble normalises exact shares (parallel to entries) and bucket sums
// into a Vector.
func assemble(p Params, entries []Entry, exact, acc []float64) Vector {
	v := Vector{Params: p}
	var norm float64
	for _, s := range exact {
		norm += s * s
	}
	nonzero := false
	for _, x := range acc {
		norm += x * x
		nonzero = nonzero || x != 0
	}
	if norm == 0 {
		return v
	}
	norm = math.Sqrt(norm)
	v.Scale = float32(norm)
	for i := range entries {
		entries[i].Weight = float32(exact[i] / norm)
	}
	sortExact(entries)
	v.Exact = entries
	if nonzero {
		v.Buckets = make([]float32, len(acc))
		for i, x := range acc {
			v.Buckets[i] = float32(x / norm)
		}
	}
	return v
}

// Merge returns the vector of the profiles of vs merged, each weighted by
// its total (as merging the profiles would weigh their shares): shares are
// recovered from each vector's Scale, summed per kept feature and per
// bucket, the K largest kept features stay exact and the others fold into
// their buckets. All vectors must share parameters.
func Merge(vs []Vector, totals []int64) (Vector, error) {
	if len(vs) != len(totals) {
		return Vector{}, fmt.Errorf("novelty: merge of %d vectors with %d totals", len(vs), len(totals))
	}
	var p Params
	var sum float64
	first := true
	for i := range vs {
		if vs[i].IsZero() {
			continue
		}
		if first {
			p, first = vs[i].Params, false
		} else if vs[i].Params != p {
			return Vector{}, fmt.Errorf("novelty: merge of vectors with parameters %+v and %+v", p, vs[i].Params)
		}
		sum += math.Abs(float64(totals[i]))
	}
	if first || sum == 0 {
		return Vector{Params: p}, nil
	}
	shares := map[uint64]float64{}
	names := map[uint64]string{}
	acc := make([]float64, p.D)
	for i := range vs {
		v := &vs[i]
		if v.IsZero() {
			continue
		}
		w := math.Abs(float64(totals[i])) / sum * float64(v.Scale)
		for _, e := range v.Exact {
			shares[e.Hash] += w * float64(e.Weight)
			names[e.Hash] = e.Key
		}
		for k, x := range v.Buckets {
			acc[k] += w * float64(x)
		}
	}
	all := make([]feat, 0, len(shares))
	for h, s := range shares {
		all = append(all, feat{h: h, s: s})
	}
	topFirst(all, p.K)
	k := min(p.K, len(all))
	for _, f := range all[k:] {
		i, sign := bucket(f.h, p.D)
		acc[i] += sign * f.s
	}
	exact := make([]float64, k)
	es := make([]Entry, k)
	for i, f := range all[:k] {
		exact[i] = f.s
		es[i] = Entry{Key: names[f.h], Hash: f.h}
	}
	out := assemble(p, es, exact, acc)
	// Samples add up, unknown when any part's is.
	for i := range vs {
		if vs[i].IsZero() {
			continue
		}
		if vs[i].Samples == 0 {
			out.Samples = 0
			break
		}
		out.Samples = min(out.Samples+vs[i].Samples, MaxSamples)
	}
	// Groups: shares weighted as the profiles' (a group a profile did not
	// keep counts 0 there).
	gshares := map[uint64]float64{}
	for i := range vs {
		w := math.Abs(float64(totals[i])) / sum
		for _, e := range vs[i].Groups {
			gshares[e.Hash] += w * float64(e.Weight)
			names[e.Hash] = e.Key
		}
	}
	if len(gshares) > 0 {
		gs := make([]feat, 0, len(gshares))
		for h, x := range gshares {
			gs = append(gs, feat{h: h, s: x})
		}
		out.Groups = topGroups(gs, DefaultGroups, func(h uint64) string { return names[h] })
	}
	return out, nil
}

func sortExact(es []Entry) {
	slices.SortFunc(es, func(a, b Entry) int { return cmp.Compare(a.Hash, b.Hash) })
}

// topFirst moves the k features first by byShare to the front of all, in
// order (the rest in any order), in O(n log k).
func topFirst(all []feat, k int) {
	if k >= len(all)/4 {
		slices.SortFunc(all, byShare)
		return
	}
	// all[:k] is a heap whose root is the worst of the best k so far.
	h := all[:k]
	worse := func(i, j int) bool { return byShare(h[i], h[j]) > 0 }
	down := func(i int) {
		for {
			c := 2*i + 1
			if c >= k {
				return
			}
			if c+1 < k && worse(c+1, c) {
				c++
			}
			if !worse(c, i) {
				return
			}
			h[i], h[c] = h[c], h[i]
			i = c
		}
	}
	for i := k/2 - 1; i >= 0; i-- {
		down(i)
	}
	for i := k; i < len(all); i++ {
		if k > 0 && byShare(all[i], h[0]) < 0 {
			all[i], h[0] = h[0], all[i]
			down(0)
		}
	}
	slices.SortFunc(h, byShare)
}
