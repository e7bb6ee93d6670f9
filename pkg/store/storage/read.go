// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package storage

import (
	"context"
	"sort"

	"github.com/cockroachdb/pebble/v2"
	"github.com/prometheus/prometheus/model/labels"
)

// Select returns the ids of the series whose labels match every matcher and
// that hold profiles within [start, end] (unix nanoseconds), sorted.
func (db *DB) Select(ms []*labels.Matcher, start, end int64) []uint32 {
	db.mu.RLock()
	defer db.mu.RUnlock()
	t := db.t
	var candidates []uint32
	narrowed := false
	// Equality matchers on a non-empty value narrow through the postings.
	for _, m := range ms {
		if m.Type != labels.MatchEqual || m.Value == "" {
			continue
		}
		ids := t.postings[m.Name][m.Value]
		if !narrowed {
			candidates = append([]uint32(nil), ids...)
			narrowed = true
			continue
		}
		candidates = intersect(candidates, ids)
	}
	if !narrowed {
		candidates = make([]uint32, len(t.series))
		for i := range candidates {
			candidates[i] = uint32(i)
		}
	}
	out := candidates[:0]
	for _, id := range candidates {
		if t.seriesMax[id] < start || t.seriesMin[id] > end {
			continue
		}
		if matches(t.series[id], ms) {
			out = append(out, id)
		}
	}
	return out
}

func matches(ls Labels, ms []*labels.Matcher) bool {
	for _, m := range ms {
		if !m.Matches(ls.Get(m.Name)) {
			return false
		}
	}
	return true
}

// intersect intersects two sorted id lists.
func intersect(a, b []uint32) []uint32 {
	out := a[:0]
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] < b[j]:
			i++
		case a[i] > b[j]:
			j++
		default:
			out = append(out, a[i])
			i++
			j++
		}
	}
	return out
}

// SeriesLabels returns the labels of a series.
func (db *DB) SeriesLabels(id uint32) Labels {
	db.mu.RLock()
	defer db.mu.RUnlock()
	return db.t.series[id]
}

// Scan calls fn for every profile of the given series within [start, end]
// (unix nanoseconds), series by series in time order. The Profile passed to
// fn is reused between calls. With totalOnly set, only totals are decoded.
// Stack ids of profiles read by Scan may be newer than a View taken before;
// use a Snapshot to read stacks.
func (db *DB) Scan(series []uint32, start, end int64, totalOnly bool, fn func(*Profile) error) error {
	return scan(context.Background(), db.pdb, series, start, end, totalOnly, fn)
}

// ScanContext is Scan stopping with ctx's error once ctx is done.
func (db *DB) ScanContext(ctx context.Context, series []uint32, start, end int64, totalOnly bool, fn func(*Profile) error) error {
	return scan(ctx, db.pdb, series, start, end, totalOnly, fn)
}

// Snapshot is a consistent read view: its profiles only refer to stacks and
// strings its View holds. Close it when done.
type Snapshot struct {
	view *View
	snap *pebble.Snapshot
}

// Snapshot takes a consistent read view of the database.
func (db *DB) Snapshot() *Snapshot {
	db.mu.RLock()
	defer db.mu.RUnlock()
	return &Snapshot{
		view: &View{strs: db.t.strs, parent: db.t.stackParent, frame: db.t.stackFrame, meta: db.t.stackMeta},
		snap: db.pdb.NewSnapshot(),
	}
}

// View returns the string and stack tables of the snapshot.
func (s *Snapshot) View() *View { return s.view }

// Scan is DB.Scan on the snapshot.
func (s *Snapshot) Scan(series []uint32, start, end int64, totalOnly bool, fn func(*Profile) error) error {
	return scan(context.Background(), s.snap, series, start, end, totalOnly, fn)
}

// ScanContext is Scan stopping with ctx's error once ctx is done.
func (s *Snapshot) ScanContext(ctx context.Context, series []uint32, start, end int64, totalOnly bool, fn func(*Profile) error) error {
	return scan(ctx, s.snap, series, start, end, totalOnly, fn)
}

// Close releases the snapshot.
func (s *Snapshot) Close() error { return s.snap.Close() }

type iterSource interface {
	NewIter(*pebble.IterOptions) (*pebble.Iterator, error)
}

// checkEvery is how many profiles a scan reads between looks at its context.
const checkEvery = 64

func scan(ctx context.Context, src iterSource, series []uint32, start, end int64, totalOnly bool, fn func(*Profile) error) error {
	if len(series) == 0 || start > end {
		return nil
	}
	sorted := append([]uint32(nil), series...)
	sort.Slice(sorted, func(a, b int) bool { return sorted[a] < sorted[b] })
	it, err := src.NewIter(&pebble.IterOptions{
		LowerBound: profileBound(sorted[0], start),
		UpperBound: prefixEnd(idKey(tableProfile, sorted[len(sorted)-1])),
	})
	if err != nil {
		return err
	}
	defer it.Close()
	var p Profile
	n := 0
	for _, s := range sorted {
		if err := ctx.Err(); err != nil {
			return err
		}
		for ok := it.SeekGE(profileBound(s, start)); ok; ok = it.Next() {
			if n++; n%checkEvery == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			sid, ts, valid := parseProfileKey(it.Key())
			if !valid || sid != s || ts > end {
				break
			}
			v, err := it.ValueAndErr()
			if err != nil {
				return err
			}
			p.Series, p.Time = sid, ts
			if err := decodeProfile(it.Key(), v, &p, totalOnly); err != nil {
				return err
			}
			if err := fn(&p); err != nil {
				return err
			}
		}
	}
	return it.Error()
}

// View is a read-only snapshot of the string and stack tables; tables only
// grow, so a View stays valid while more is appended.
type View struct {
	strs   []string
	parent []uint32
	frame  []uint32
	meta   []FrameMeta
}

// FrameFile returns the file name and line of the leaf frame of stack id
// ("" and 0 when unknown).
func (v *View) FrameFile(id uint32) (string, int64) {
	m := v.meta[id]
	return v.ref(m.File), m.Line
}

// FrameStartLine returns the first line of the function of stack id's leaf
// frame (0 when unknown).
func (v *View) FrameStartLine(id uint32) int64 { return v.meta[id].StartLine }

// FrameInlined tells whether the leaf frame of stack id was inlined into
// its parent's frame (both are lines of one pprof location).
func (v *View) FrameInlined(id uint32) bool { return v.meta[id].Inlined }

// FrameMapping returns the binary file and build id of the leaf frame of
// stack id ("" when unknown).
func (v *View) FrameMapping(id uint32) (file, buildID string) {
	m := v.meta[id]
	return v.ref(m.MapFile), v.ref(m.BuildID)
}

func (v *View) ref(r uint32) string {
	if r == 0 {
		return ""
	}
	return v.strs[r-1]
}

// Len returns the number of stack nodes in the view.
func (v *View) Len() int { return len(v.parent) }

// Parent returns the parent stack of stack id (0 is the empty stack).
func (v *View) Parent(id uint32) uint32 { return v.parent[id] }

// FrameName returns the leaf frame name of stack id.
func (v *View) FrameName(id uint32) string { return v.strs[v.frame[id]] }

// FrameID returns the string id of the leaf frame of stack id.
func (v *View) FrameID(id uint32) uint32 { return v.frame[id] }

// String returns string id.
func (v *View) String(id uint32) string { return v.strs[id] }

// Stack returns the frame names of stack id, root first.
func (v *View) Stack(id uint32) []string {
	var out []string
	for ; id != 0; id = v.parent[id] {
		out = append(out, v.strs[v.frame[id]])
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// TimeBoundsOf returns the times of the oldest and newest profiles of the
// given series; ok is false when they hold none.
func (db *DB) TimeBoundsOf(ids []uint32) (oldest, newest int64, ok bool) {
	db.mu.RLock()
	defer db.mu.RUnlock()
	oldest, newest = 1<<63-1, -1<<63
	for _, i := range ids {
		if db.t.seriesMin[i] <= db.t.seriesMax[i] {
			oldest, newest, ok = min(oldest, db.t.seriesMin[i]), max(newest, db.t.seriesMax[i]), true
		}
	}
	return oldest, newest, ok
}

// TimeBounds returns the times of the oldest and newest stored profiles;
// ok is false when nothing is stored.
func (db *DB) TimeBounds() (oldest, newest int64, ok bool) {
	db.mu.RLock()
	defer db.mu.RUnlock()
	oldest, newest = 1<<63-1, -1<<63
	for i := range db.t.series {
		if db.t.seriesMin[i] <= db.t.seriesMax[i] {
			oldest, newest, ok = min(oldest, db.t.seriesMin[i]), max(newest, db.t.seriesMax[i]), true
		}
	}
	if !ok {
		return 0, 0, false
	}
	return oldest, newest, true
}
