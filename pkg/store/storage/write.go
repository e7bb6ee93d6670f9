package storage

import (
	"encoding/binary"
	"fmt"
	"slices"
	"time"

	"github.com/cockroachdb/pebble/v2"

	"github.com/emberscope/emberscope/pkg/pprofconv"
)

// Write is one profile to store: one series of a converted pprof.
type Write struct {
	// Labels are the full series labels (profile type labels included).
	Labels Labels
	// Time is the profile's time in unix nanoseconds.
	Time int64
	// Result holds the frame names and stacks Series refers to.
	Result *pprofconv.Result
	// Series is one of Result.Series.
	Series *pprofconv.Series
}

// AppendStats tells what an Append stored.
type AppendStats struct {
	// Profiles is the number of profiles stored (cumulative profiles that
	// only set a baseline are not counted).
	Profiles int
	// Bytes is the size of the keys and values written.
	Bytes int
}

// Append stores ws in one durable batch: either all of them are stored and
// synced to the write-ahead log, or none.
func (db *DB) Append(ws []Write) (AppendStats, error) {
	db.wmu.Lock()
	defer db.wmu.Unlock()
	bw := &batchWriter{b: db.pdb.NewBatch()}
	defer bw.b.Close()
	x := newTxn(db.t, bw)
	newCum := make(map[string]*cumState)
	type seen struct {
		series uint32
		time   int64
	}
	var bounds []seen
	var stats AppendStats
	// Stack ids of each converted result, resolved once.
	resolved := make(map[*pprofconv.Result][]uint32)
	seq := db.seq
	for i := range ws {
		w := &ws[i]
		stackIDs, ok := resolved[w.Result]
		if !ok {
			stackIDs = resolveStacks(x, w.Result)
			resolved[w.Result] = stackIDs
		}
		samples := make([]stackValue, 0, len(w.Series.Samples))
		for _, s := range w.Series.Samples {
			samples = append(samples, stackValue{stackIDs[s.Stack], s.Value})
		}
		slices.SortFunc(samples, func(a, b stackValue) int { return int(int64(a.stack) - int64(b.stack)) })
		samples = mergeSame(samples)
		if w.Series.Cumulative {
			key := w.Labels.key()
			prev := newCum[key]
			if prev == nil {
				prev = db.cum[key]
			}
			next := &cumState{time: w.Time, values: samples, lastSeen: db.now()}
			if prev != nil && w.Time < prev.time {
				// Out of order: nothing to subtract from; keep the newer baseline.
				continue
			}
			newCum[key] = next
			bw.set(append([]byte{tableCumulative}, key...), next.encode())
			if prev == nil || w.Time-prev.time > int64(db.staleAfter) {
				// The first profile of a series (or the first after a long
				// gap) only sets the baseline: it holds everything allocated
				// since the process started.
				continue
			}
			samples = delta(prev.values, samples)
			if len(samples) == 0 {
				continue
			}
		}
		series := x.seriesID(w.Labels)
		seq++
		samples, vk, vrec := db.vectorize(x, series, w, seq, samples)
		bw.set(profileKey(series, w.Time, seq), encodeProfile(samples, nil))
		if vk != nil {
			bw.set(vk, vrec)
		}
		bounds = append(bounds, seen{series, w.Time})
		stats.Profiles++
	}
	stale := db.staleCumulative(bw, newCum)
	if seq != db.seq {
		bw.set(metaProfileSeq, binary.BigEndian.AppendUint64(nil, seq))
	}
	if bw.err != nil {
		return AppendStats{}, fmt.Errorf("storage: build batch: %w", bw.err)
	}
	if bw.b.Empty() {
		return stats, nil
	}
	// Commit and publish under the write lock: a reader's snapshot (see
	// Snapshot) then never holds a profile whose stacks its tables lack.
	db.mu.Lock()
	if err := bw.b.Commit(pebble.Sync); err != nil {
		db.mu.Unlock()
		return AppendStats{}, fmt.Errorf("storage: commit: %w", err)
	}
	x.publish()
	for _, b := range bounds {
		db.t.seenAt(b.series, b.time)
	}
	db.mu.Unlock()
	db.seq = seq
	for k, st := range newCum {
		db.cum[k] = st
	}
	for _, k := range stale {
		delete(db.cum, k)
	}
	stats.Bytes = bw.bytes
	return stats, nil
}

// staleCumulative deletes in the batch, at most once a minute, the
// cumulative state of series that sent nothing for StaleAfter, and returns
// their keys to forget once the batch is committed.
func (db *DB) staleCumulative(bw *batchWriter, fresh map[string]*cumState) []string {
	now := db.now()
	if now.Sub(db.lastSweep) < time.Minute {
		return nil
	}
	db.lastSweep = now
	var stale []string
	for k, st := range db.cum {
		if _, ok := fresh[k]; ok || now.Sub(st.lastSeen) <= db.staleAfter {
			continue
		}
		bw.del(append([]byte{tableCumulative}, k...))
		stale = append(stale, k)
	}
	return stale
}

// resolveStacks interns every stack of r and returns their stack ids.
func resolveStacks(x *txn, r *pprofconv.Result) []uint32 {
	names := make([]uint32, len(r.Names))
	for i, n := range r.Names {
		names[i] = x.str(n)
	}
	ids := make([]uint32, len(r.Stacks))
	for i, st := range r.Stacks {
		node := uint32(0)
		for _, f := range st {
			node = x.stack(node, names[f])
		}
		ids[i] = node
	}
	return ids
}

type stackValue struct {
	stack uint32
	value int64
}

// mergeSame sums adjacent entries of sorted samples with the same stack.
func mergeSame(s []stackValue) []stackValue {
	out := s[:0]
	for _, v := range s {
		if n := len(out); n > 0 && out[n-1].stack == v.stack {
			out[n-1].value += v.value
			continue
		}
		out = append(out, v)
	}
	return slices.DeleteFunc(out, func(v stackValue) bool { return v.value == 0 })
}

// delta returns cur minus prev per stack (both sorted by stack). A value
// lower than before means the counter restarted: the new value is the delta.
func delta(prev, cur []stackValue) []stackValue {
	out := make([]stackValue, 0, len(cur))
	i := 0
	for _, c := range cur {
		for i < len(prev) && prev[i].stack < c.stack {
			i++
		}
		d := c.value
		if i < len(prev) && prev[i].stack == c.stack && prev[i].value <= c.value {
			d = c.value - prev[i].value
		}
		if d != 0 {
			out = append(out, stackValue{c.stack, d})
		}
	}
	return out
}

// cumState is the last cumulative profile of a series.
type cumState struct {
	time     int64
	values   []stackValue
	lastSeen time.Time
}

func (c *cumState) encode() []byte {
	b := putVarint(nil, c.time)
	b = putUvarint(b, uint64(len(c.values)))
	prev := uint32(0)
	for _, v := range c.values {
		b = putUvarint(b, uint64(v.stack-prev))
		b = putVarint(b, v.value)
		prev = v.stack
	}
	return b
}

func decodeCumState(v []byte) (*cumState, error) {
	r := reader{b: v}
	st := &cumState{time: r.varint()}
	n := r.uvarint()
	prev := uint32(0)
	for i := uint64(0); i < n && r.err == nil; i++ {
		prev += uint32(r.uvarint())
		st.values = append(st.values, stackValue{prev, r.varint()})
	}
	return st, r.err
}
