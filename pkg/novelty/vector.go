package novelty

import (
	"math"

	"github.com/emberscope/emberscope/pkg/flame"
)

// Dims is the size of a Vector. 64 float32s (256 bytes) keep a per-profile
// vector small enough to store beside every profile, while a profile's few
// dozen hot frames rarely collide.
const Dims = 64

// Vector is the compact summary of a profile: frame names hashed into Dims
// signed buckets, weighted by self share, L2-normalised. The zero Vector
// stands for an empty profile.
type Vector [Dims]float32

// IsZero reports whether v is the vector of an empty profile.
func (v *Vector) IsZero() bool {
	for _, x := range v {
		if x != 0 {
			return false
		}
	}
	return true
}

// Dot returns the dot product of v and w.
func (v *Vector) Dot(w *Vector) float64 {
	var s float64
	for i := range v {
		s += float64(v[i]) * float64(w[i])
	}
	return s
}

// FNV-1a 64 constants (the same hash as hash/fnv's New64a, computed over the
// string without converting it to bytes, so hashing allocates nothing).
const (
	fnvOffset64 = 14695981039346656037
	fnvPrime64  = 1099511628211
)

// fnv64a is FNV-1a 64 of s.
func fnv64a(s string) uint64 {
	h := uint64(fnvOffset64)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= fnvPrime64
	}
	return h
}

// bucket returns the bucket and sign of a frame name: the low six bits of
// its FNV-1a 64 hash choose the bucket and the top bit the sign, so the
// mapping is the same in every process and on every machine.
func bucket(name string) (int, float64) {
	x := fnv64a(name)
	sign := 1.0
	if x>>63 == 1 {
		sign = -1
	}
	return int(x % Dims), sign
}

// vectorOf hashes self shares by name into a normalised Vector.
func vectorOf(shares map[string]float64) Vector {
	var acc [Dims]float64
	for name, s := range shares {
		i, sign := bucket(name)
		acc[i] += sign * s
	}
	var norm float64
	for _, x := range acc {
		norm += x * x
	}
	var v Vector
	if norm == 0 {
		return v
	}
	norm = math.Sqrt(norm)
	for i, x := range acc {
		v[i] = float32(x / norm)
	}
	return v
}

// Summary is what novelty keeps of one profile or window: its vector, its
// total, and the self share of each frame name, so that the next window can
// tell which frames grew (see Rises). It holds no stacks.
type Summary struct {
	Vector Vector
	// Total is the profile's total value (the tree root's total).
	Total int64
	// Shares is the self share (0..1) of each frame name with self value.
	Shares map[string]float64
}

// NewSummary summarises t in one pass over its nodes: self values are summed
// per frame name (a recursive function counts once per node it leaves samples
// in, never twice for the same sample), divided by the tree's total, and
// hashed into the vector. Virtual frames and the "other" nodes of a
// truncated tree count like any frame: they are part of what the query shows.
func NewSummary(t *flame.Tree) Summary {
	s := Summary{Total: t.Total()}
	if s.Total <= 0 {
		s.Shares = map[string]float64{}
		return s
	}
	// Sum self per interned name id first: one map write per distinct name.
	self := make([]int64, len(t.Names()))
	distinct := 0
	for n := 0; n < t.Len(); n++ {
		id := flame.NodeID(n)
		if v := t.Self(id); v != 0 {
			if self[t.NameID(id)] == 0 {
				distinct++
			}
			self[t.NameID(id)] += v
		}
	}
	s.Shares = make(map[string]float64, distinct)
	total := float64(s.Total)
	for id, v := range self {
		if v != 0 {
			s.Shares[t.NameOf(int32(id))] = float64(v) / total
		}
	}
	s.Vector = vectorOf(s.Shares)
	return s
}
