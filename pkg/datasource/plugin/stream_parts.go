// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"crypto/sha256"
	"encoding/base64"
	"regexp"
	"strconv"
	"strings"

	"github.com/grafana/grafana-plugin-sdk-go/data"
)

// Every frame of a live query has its own channel, "live/<key>/<part>":
// Grafana's DataSourceWithBackend opens one stream per frame that names a
// channel and keeps in it whatever that channel sends, so one channel must
// carry one frame. A time series is named by its labels ("series-<hash>"), so
// that it keeps its channel when other series come or go; any other frame
// (flamegraph, top table, labels, histogram) by its position among the
// frames that are not series ("frame-<n>").

// partPattern matches the part of a channel path.
var partPattern = regexp.MustCompile(`^(frame-[0-9]{1,4}|series-[A-Za-z0-9_-]{11})$`)

// frameParts returns the part of every frame, in order.
func frameParts(frames data.Frames) []string {
	parts := make([]string, len(frames))
	n := 0
	for i, f := range frames {
		if timeField(f) >= 0 {
			parts[i] = "series-" + seriesID(f)
			continue
		}
		parts[i] = "frame-" + strconv.Itoa(n)
		n++
	}
	return parts
}

// seriesID hashes a series frame's name and the labels of its value fields
// into 11 base64url characters.
func seriesID(f *data.Frame) string {
	var b strings.Builder
	b.WriteString(f.Name)
	for _, fl := range f.Fields {
		if fl.Type().Numeric() {
			b.WriteString("\x00" + fl.Name + "\x00" + fl.Labels.String())
		}
	}
	sum := sha256.Sum256([]byte(b.String()))
	return base64.RawURLEncoding.EncodeToString(sum[:8])
}

// pickPart returns the frame of frames whose part is part; when the answer
// no longer has it (a series left the window), an empty frame under refID.
func pickPart(frames data.Frames, part, refID string) *data.Frame {
	for i, p := range frameParts(frames) {
		if p == part {
			return frames[i]
		}
	}
	f := data.NewFrame("")
	f.RefID = refID
	return f
}
