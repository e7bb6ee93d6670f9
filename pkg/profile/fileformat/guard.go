// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package fileformat

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/google/pprof/profile"
)

// gunzip undoes gzip when data starts with its magic, reading at most max
// bytes of output: a decompression bomb is refused after max bytes, not
// after it filled the memory.
func gunzip(name string, data []byte, max int64) ([]byte, error) {
	if len(data) < 2 || data[0] != 0x1f || data[1] != 0x8b {
		if max > 0 && int64(len(data)) > max {
			return nil, tooLarge(name, "the file has %d bytes, more than the limit of %d bytes", len(data), max)
		}
		return data, nil
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, errorf(name, "invalid gzip data: %v", err)
	}
	r := io.Reader(zr)
	if max > 0 {
		r = io.LimitReader(zr, max+1)
	}
	out, err := io.ReadAll(r)
	if err != nil {
		return nil, errorf(name, "invalid gzip data after %d decompressed bytes: %v (truncated file?)", len(out), err)
	}
	if max > 0 && int64(len(out)) > max {
		return nil, tooLarge(name, "the file is more than %d bytes once decompressed, the limit for a file (a decompression bomb?)", max)
	}
	return out, nil
}

// check refuses a profile with more samples than the limit or with strings
// that are not UTF-8, and truncates stacks deeper than the limit, keeping
// their root-side frames; it returns how many stacks it truncated.
func check(name string, p *profile.Profile, lim Limits) (int, error) {
	if lim.MaxSamples > 0 && len(p.Sample) > lim.MaxSamples {
		return 0, tooLarge(name, "the profile has %d samples, more than the limit of %d", len(p.Sample), lim.MaxSamples)
	}
	for i, st := range p.SampleType {
		if err := utf8Strings(fmt.Sprintf("sample type %d", i), st.Type, st.Unit); err != nil {
			return 0, errorf(name, "%v", err)
		}
	}
	for _, f := range p.Function {
		if err := utf8Strings(fmt.Sprintf("function %d", f.ID), f.Name, f.SystemName, f.Filename); err != nil {
			return 0, errorf(name, "%v", err)
		}
	}
	for _, m := range p.Mapping {
		if err := utf8Strings(fmt.Sprintf("mapping %d", m.ID), m.File, m.BuildID); err != nil {
			return 0, errorf(name, "%v", err)
		}
	}
	truncated := 0
	for si, s := range p.Sample {
		for k, vs := range s.Label {
			if err := utf8Strings(fmt.Sprintf("sample %d label", si), append([]string{k}, vs...)...); err != nil {
				return 0, errorf(name, "%v", err)
			}
		}
		for k := range s.NumLabel {
			if err := utf8Strings(fmt.Sprintf("sample %d numeric label", si), k); err != nil {
				return 0, errorf(name, "%v", err)
			}
		}
		if lim.MaxStackDepth > 0 {
			if kept := keepRootFrames(s.Location, lim.MaxStackDepth); len(kept) < len(s.Location) {
				s.Location = kept
				truncated++
			}
		}
	}
	return truncated, nil
}

// keepRootFrames keeps the root-side locations of a stack (Location[0] is
// the leaf) within depth frames, every inlined line counted as a frame.
func keepRootFrames(locs []*profile.Location, depth int) []*profile.Location {
	frames := 0
	for i := len(locs) - 1; i >= 0; i-- {
		frames += max(1, len(locs[i].Line))
		if frames > depth {
			return locs[i+1:]
		}
	}
	return locs
}

func utf8Strings(what string, values ...string) error {
	for _, v := range values {
		if !utf8.ValidString(v) {
			q := v
			if len(q) > 64 {
				q = q[:64]
			}
			return fmt.Errorf("%s: %+q is not valid UTF-8", what, q)
		}
	}
	return nil
}
