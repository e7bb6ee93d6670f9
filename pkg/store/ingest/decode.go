// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package ingest

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"

	"github.com/google/pprof/profile"
)

// MaxUncompressedBytes bounds a decompressed profile.
const MaxUncompressedBytes = 256 << 20

// gunzipIfNeeded returns data decompressed when it starts with the gzip magic.
func gunzipIfNeeded(data []byte) ([]byte, error) {
	if len(data) < 2 || data[0] != 0x1f || data[1] != 0x8b {
		return data, nil
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, errorf(ReasonBadProfile, "invalid gzip data: %v", err)
	}
	out, err := io.ReadAll(io.LimitReader(zr, MaxUncompressedBytes+1))
	if err != nil {
		return nil, errorf(ReasonBadProfile, "invalid gzip data after %d bytes: %v (truncated?)", len(out), err)
	}
	if len(out) > MaxUncompressedBytes {
		return nil, errorf(ReasonTooLarge, "profile larger than %d bytes once decompressed", MaxUncompressedBytes)
	}
	return out, nil
}

// ParsePprof parses a pprof, gzipped or not. It returns the profile and its
// uncompressed size.
func ParsePprof(data []byte) (*profile.Profile, int, error) {
	if len(data) == 0 {
		return nil, 0, errorf(ReasonBadProfile, "invalid pprof: empty body")
	}
	raw, err := gunzipIfNeeded(data)
	if err != nil {
		return nil, 0, err
	}
	p, err := profile.ParseUncompressed(raw)
	if err != nil {
		return nil, len(raw), errorf(ReasonBadProfile, "invalid pprof (%d bytes): %v", len(raw), err)
	}
	if err := p.CheckValid(); err != nil {
		return nil, len(raw), errorf(ReasonBadProfile, "invalid pprof: %v", err)
	}
	if len(p.SampleType) == 0 {
		return nil, len(raw), errorf(ReasonBadProfile, "invalid pprof: no sample types")
	}
	return p, len(raw), nil
}

// describe names a profile in error messages.
func describe(p *profile.Profile) string {
	return fmt.Sprintf("%d sample types, %d samples", len(p.SampleType), len(p.Sample))
}
