// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package storage

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"time"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/vfs"
)

// lostName stands for strings of a salvaged database that could not be read.
const lostName = "[lost in salvage]"

// Salvage makes a data directory with unreadable data open again: when
// Open fails on corrupt data, it copies every readable key into a fresh
// directory (skipping the key ranges of the tables that cannot be read,
// filling the gaps of the string, stack and series tables with
// placeholders and dropping unreadable profiles), keeps the old directory
// beside it as <dir>.corrupt-<unix time> and puts the copy in its place.
// A directory that opens is left alone.
func Salvage(opts Options) error {
	if db, err := Open(opts); err == nil {
		return db.Close()
	} else if !errors.Is(err, ErrCorrupt) {
		return err
	}
	fs := opts.FS
	if fs == nil {
		fs = vfs.Default
	}
	pl := newPebbleLogger(opts.Logger)
	src, err := pebble.Open(opts.Dir, &pebble.Options{FS: fs, Logger: pl, EventListener: eventListener(pl)})
	if err != nil {
		return fmt.Errorf("storage: salvage %s: Pebble cannot open it at all: %w", opts.Dir, err)
	}
	bad, err := badRanges(src)
	if err != nil {
		_ = src.Close()
		return fmt.Errorf("storage: salvage %s: %w", opts.Dir, err)
	}
	tmp := opts.Dir + ".salvage"
	_ = fs.RemoveAll(tmp)
	dst, err := pebble.Open(tmp, &pebble.Options{FS: fs, Logger: pl, EventListener: eventListener(pl)})
	if err != nil {
		_ = src.Close()
		return fmt.Errorf("storage: salvage into %s: %w", tmp, err)
	}
	kept, dropped, err := copyReadable(src, dst, bad)
	if cerr := dst.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = src.Close()
		return fmt.Errorf("storage: salvage %s: %w", opts.Dir, err)
	}
	if err := src.Close(); err != nil {
		return fmt.Errorf("storage: salvage %s: %w", opts.Dir, err)
	}
	aside := opts.Dir + ".corrupt-" + strconv.FormatInt(time.Now().Unix(), 10)
	if err := fs.Rename(opts.Dir, aside); err != nil {
		return fmt.Errorf("storage: salvage: move %s aside: %w", opts.Dir, err)
	}
	if err := fs.Rename(tmp, opts.Dir); err != nil {
		return fmt.Errorf("storage: salvage: move %s to %s: %w", tmp, opts.Dir, err)
	}
	if opts.Logger != nil {
		opts.Logger.Warn("storage: salvaged a corrupt data directory", "dir", opts.Dir, "kept_keys", kept,
			"dropped_keys", dropped, "unreadable_ranges", len(bad), "old_directory", aside)
	}
	return nil
}

type keyRange struct{ start, end []byte } // [start, end)

// badRanges returns the key ranges of the tables that cannot be read.
func badRanges(db *pebble.DB) ([]keyRange, error) {
	levels, err := db.SSTables()
	if err != nil {
		return nil, err
	}
	var bad []keyRange
	for _, level := range levels {
		for _, t := range level {
			r := keyRange{append([]byte(nil), t.Smallest.UserKey...), append(append([]byte(nil), t.Largest.UserKey...), 0)}
			it, err := db.NewIter(&pebble.IterOptions{LowerBound: r.start, UpperBound: r.end})
			if err != nil {
				bad = append(bad, r)
				continue
			}
			for ok := it.First(); ok; ok = it.Next() {
				if _, err := it.ValueAndErr(); err != nil {
					break
				}
			}
			ierr := it.Error()
			if cerr := it.Close(); ierr != nil || cerr != nil {
				bad = append(bad, r)
			}
		}
	}
	sort.Slice(bad, func(a, b int) bool { return bytes.Compare(bad[a].start, bad[b].start) < 0 })
	return bad, nil
}

// copyReadable copies the readable keys of src outside bad into dst,
// repairing the dense tables so that the copy loads.
func copyReadable(src, dst *pebble.DB, bad []keyRange) (kept, dropped int, err error) {
	strs := map[uint32][]byte{}
	stacks := map[uint32][]byte{}
	series := map[uint32][]byte{}
	b := dst.NewBatch()
	flush := func() error {
		if b.Len() > 16<<20 {
			if err := b.Commit(pebble.NoSync); err != nil {
				return err
			}
			b = dst.NewBatch()
		}
		return nil
	}
	// The readable segments are the gaps between the bad ranges.
	var segs []keyRange
	lo := []byte{0}
	for _, r := range bad {
		if bytes.Compare(r.start, lo) > 0 {
			segs = append(segs, keyRange{lo, r.start})
		}
		if bytes.Compare(r.end, lo) > 0 {
			lo = r.end
		}
	}
	segs = append(segs, keyRange{lo, []byte{0xff, 0xff}})
	for _, seg := range segs {
		it, err := src.NewIter(&pebble.IterOptions{LowerBound: seg.start, UpperBound: seg.end})
		if err != nil {
			return kept, dropped, err
		}
		for ok := it.First(); ok; ok = it.Next() {
			v, err := it.ValueAndErr()
			if err != nil {
				dropped++
				break
			}
			k := it.Key()
			if len(k) == 5 {
				id := binary.BigEndian.Uint32(k[1:])
				switch k[0] {
				case tableString:
					strs[id] = append([]byte(nil), v...)
					continue
				case tableStack:
					stacks[id] = append([]byte(nil), v...)
					continue
				case tableSeries:
					series[id] = append([]byte(nil), v...)
					continue
				}
			}
			if k[0] == tableProfile {
				var p Profile
				if decodeProfile(k, v, &p, false) != nil {
					dropped++
					continue
				}
			}
			if err := b.Set(k, v, nil); err != nil {
				return kept, dropped, err
			}
			kept++
			if err := flush(); err != nil {
				return kept, dropped, err
			}
		}
		_ = it.Close()
	}
	// Dense tables: fill the gaps so that every id below the largest exists.
	n := denseLen(strs)
	strs[n] = []byte(lostName) // the placeholder frame of lost stacks
	for id := uint32(0); id <= n; id++ {
		v, ok := strs[id]
		if !ok {
			v, dropped = []byte(lostName), dropped+1
		}
		_ = b.Set(idKey(tableString, id), v, nil)
	}
	lost := n
	for id := uint32(1); id < denseLen(stacks); id++ {
		v, ok := stacks[id]
		r := reader{b: v}
		parent, frame := r.uvarint(), r.uvarint()
		if !ok || r.err != nil || parent >= uint64(id) || frame > uint64(n) {
			v, dropped = putUvarint(putUvarint(nil, 0), uint64(lost)), dropped+1
		}
		_ = b.Set(idKey(tableStack, id), v, nil)
	}
	for id := uint32(0); id < denseLen(series); id++ {
		v, ok := series[id]
		if !ok || !validSeries(v, n) {
			rec := putUvarint(nil, 1)
			rec = putUvarint(rec, uint64(lost))
			rec = putUvarint(rec, uint64(lost))
			v, dropped = rec, dropped+1
		}
		_ = b.Set(idKey(tableSeries, id), v, nil)
	}
	if err := b.Commit(pebble.Sync); err != nil {
		return kept, dropped, err
	}
	return kept + len(strs) + len(stacks) + len(series), dropped, nil
}

// denseLen is one more than the largest id of m (0 when empty).
func denseLen(m map[uint32][]byte) uint32 {
	var n uint32
	for id := range m {
		n = max(n, id+1)
	}
	return n
}

func validSeries(v []byte, nstr uint32) bool {
	r := reader{b: v}
	n := r.uvarint()
	for i := uint64(0); i < n && r.err == nil; i++ {
		if name, value := r.uvarint(), r.uvarint(); name > uint64(nstr) || value > uint64(nstr) {
			return false
		}
	}
	return r.err == nil
}
