package novelty

import (
	"cmp"
	"slices"
)

// Rise is a frame whose self share grew from one window to the next.
type Rise struct {
	Name string
	// From and To are the frame's self share (0..1) before and after.
	From, To float64
}

// Delta is how much the share grew.
func (r Rise) Delta() float64 { return r.To - r.From }

// Rises returns the n frames of s whose self share grew most since prev
// (frames new in s count from 0), largest increase first, ties by name; only
// frames that grew are returned. A zero prev (no previous window) makes every
// frame of s new.
func (s Summary) Rises(prev Summary, n int) []Rise {
	if n <= 0 {
		return nil
	}
	out := make([]Rise, 0, n+1)
	better := func(a, b Rise) int {
		if c := cmp.Compare(b.Delta(), a.Delta()); c != 0 {
			return c
		}
		return cmp.Compare(a.Name, b.Name)
	}
	for name, to := range s.Shares {
		from := prev.Shares[name]
		if to <= from {
			continue
		}
		r := Rise{Name: name, From: from, To: to}
		if len(out) == n && better(r, out[n-1]) >= 0 {
			continue
		}
		// Insert in order, keeping at most n.
		i, _ := slices.BinarySearchFunc(out, r, better)
		out = slices.Insert(out, i, r)
		if len(out) > n {
			out = out[:n]
		}
	}
	return out
}
