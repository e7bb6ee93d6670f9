// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package fileformat

import (
	"bytes"
	"unicode/utf8"

	"github.com/google/pprof/profile"
)

// Format is the kind of a decoded file.
type Format string

const (
	FormatPprof      Format = "pprof"
	FormatCollapsed  Format = "collapsed"
	FormatCPUProfile Format = "cpuprofile"
)

// File is a decoded profile file.
type File struct {
	// Name is the file's name as given (for messages and labels).
	Name   string
	Format Format
	// Profile is the file as a pprof profile: pprof files as they are,
	// other formats converted (see ParseCollapsed, ParseCPUProfile).
	Profile *profile.Profile
	// DecodedBytes is the size of the file once decompressed.
	DecodedBytes int
	// TruncatedStacks counts the stacks cut to Limits.MaxStackDepth.
	TruncatedStacks int
}

// Decode reads one profile file, telling its format by its content: gzip is
// undone first (bounded by lim.MaxDecodedBytes), then a JSON object is a
// .cpuprofile, UTF-8 text whose first line ends with a number is collapsed
// stacks, anything else must be pprof. name only labels errors.
func Decode(name string, data []byte, lim Limits) (*File, error) {
	if len(data) == 0 {
		return nil, errorf(name, "the file is empty")
	}
	if lim.MaxFileBytes > 0 && int64(len(data)) > lim.MaxFileBytes {
		return nil, tooLarge(name, "the file has %d bytes, more than the limit of %d bytes for a file", len(data), lim.MaxFileBytes)
	}
	raw, err := gunzip(name, data, lim.MaxDecodedBytes)
	if err != nil {
		return nil, err
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, errorf(name, "the file is empty once decompressed")
	}
	f := &File{Name: name, DecodedBytes: len(raw)}
	switch text := bytes.TrimPrefix(bytes.TrimSpace(raw), []byte("\xef\xbb\xbf")); {
	case text[0] == '{':
		f.Format = FormatCPUProfile
		f.Profile, err = ParseCPUProfile(name, text)
	case looksCollapsed(text):
		f.Format = FormatCollapsed
		f.Profile, err = ParseCollapsed(name, text)
	default:
		f.Format = FormatPprof
		f.Profile, err = parsePprof(name, raw)
	}
	if err != nil {
		return nil, err
	}
	if f.TruncatedStacks, err = check(name, f.Profile, lim); err != nil {
		return nil, err
	}
	return f, nil
}

// looksCollapsed reports whether the first line of text is UTF-8 ending
// with a space and a number, as every line of collapsed stacks does (later
// lines are checked by ParseCollapsed, which names the bad one).
func looksCollapsed(text []byte) bool {
	line := text
	if i := bytes.IndexByte(text, '\n'); i >= 0 {
		line = text[:i]
	}
	line = bytes.TrimSpace(line)
	sp := bytes.LastIndexByte(line, ' ')
	if sp <= 0 || sp == len(line)-1 || !utf8.Valid(line) {
		return false
	}
	for _, c := range line[sp+1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// parsePprof parses an uncompressed pprof and checks it as pprof does.
func parsePprof(name string, raw []byte) (*profile.Profile, error) {
	p, err := profile.ParseUncompressed(raw)
	if err != nil {
		return nil, errorf(name, "not a profile: not pprof (%v), not collapsed stacks (the first line does not end with a number), not a .cpuprofile (it does not start with '{')", err)
	}
	if err := p.CheckValid(); err != nil {
		return nil, errorf(name, "invalid pprof: %v", err)
	}
	if len(p.SampleType) == 0 {
		return nil, errorf(name, "invalid pprof: it has no sample types")
	}
	return p, nil
}
