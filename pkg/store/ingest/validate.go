// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package ingest

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"time"
	"unicode/utf8"

	"connectrpc.com/connect"
	"github.com/google/pprof/profile"

	"github.com/emberscope/emberscope/pkg/profile/model"
	"github.com/emberscope/emberscope/pkg/store/limits"
	"github.com/emberscope/emberscope/pkg/store/storage"
	"github.com/emberscope/emberscope/pkg/store/tenant"
)

// ReasonLimit counts refusals by a limit (the message names which).
const ReasonLimit = "limit"

// Sane profile times: after the epoch and well before int64 nanoseconds
// overflow (year 2262), whatever the ingest time window says.
var (
	minSaneTime = time.Unix(0, 1)
	maxSaneTime = time.Unix(0, 1<<62+1<<61) // 2116
)

// limitError wraps a limits.Error as an ingest Error.
func limitError(where string, e *limits.Error) *Error {
	if e.Where == "" {
		e.Where = where
	} else if where != "" {
		e.Where = where + " " + e.Where
	}
	return &Error{Reason: ReasonLimit, Err: e}
}

// parsePprof is ParsePprof bounded by the profile size limit.
func (in *Ingester) parsePprof(data []byte) (*profile.Profile, int, error) {
	if max := in.lim.MaxProfileBytes; max > 0 {
		raw, err := gunzipLimit(data, max)
		if err != nil {
			return nil, 0, err
		}
		if int64(len(raw)) > max {
			return nil, len(raw), limitError("", limits.TooLarge("max-profile-bytes", "uncompressed profile of", fmt.Sprintf("%d+ bytes", len(raw)), fmt.Sprintf("%d bytes", max)))
		}
		data = raw
	}
	return ParsePprof(data)
}

// checkFoldedSize bounds a folded body by the profile size limit.
func (in *Ingester) checkFoldedSize(body []byte) error {
	if max := in.lim.MaxProfileBytes; max > 0 && int64(len(body)) > max {
		return limitError("", limits.TooLarge("max-profile-bytes", "folded profile of", fmt.Sprintf("%d bytes", len(body)), fmt.Sprintf("%d bytes", max)))
	}
	return nil
}

// checkTime refuses insane times and, when the window is on, times outside
// [now - RejectOlderThan, now + RejectNewerThan].
func (in *Ingester) checkTime(where string, ts time.Time) error {
	if ts.Before(minSaneTime) || ts.After(maxSaneTime) {
		return errorf(ReasonBadTime, "%sprofile time %d (unix ns) is out of range: want a time between 1970 and 2116", prefix(where), ts.UnixNano())
	}
	now := in.now()
	if d := in.lim.RejectOlderThan; d > 0 && ts.Before(now.Add(-d)) {
		return errorf(ReasonTooOld, "%sprofile at %s is older than the maximum age %s (-reject-older-than; 0 turns it off)", prefix(where), ts.UTC().Format(time.RFC3339), d)
	}
	if d := in.lim.RejectNewerThan; d > 0 && ts.After(now.Add(d)) {
		return errorf(ReasonTooOld, "%sprofile at %s is more than %s in the future (-reject-newer-than; 0 turns it off)", prefix(where), ts.UTC().Format(time.RFC3339), d)
	}
	return nil
}

// checkProfile refuses a profile beyond the limits or with strings that are
// not UTF-8, and truncates deep stacks (dropping leaf-side frames, as
// Pyroscope does) and long symbols. It runs before conversion.
func (in *Ingester) checkProfile(where string, p *profile.Profile) error {
	l := in.lim
	if l.MaxSamples > 0 && len(p.Sample) > l.MaxSamples {
		return limitError(where, limits.Invalid("max-samples", "samples", len(p.Sample), l.MaxSamples))
	}
	for i, st := range p.SampleType {
		if err := utf8Field(fmt.Sprintf("sample type %d", i), st.Type, st.Unit); err != nil {
			return &Error{Reason: ReasonBadProfile, Err: fmt.Errorf("%s%w", prefix(where), err)}
		}
	}
	if pt := p.PeriodType; pt != nil {
		if err := utf8Field("period type", pt.Type, pt.Unit); err != nil {
			return &Error{Reason: ReasonBadProfile, Err: fmt.Errorf("%s%w", prefix(where), err)}
		}
	}
	for _, f := range p.Function {
		if err := utf8Field(fmt.Sprintf("function %d", f.ID), f.Name, f.SystemName, f.Filename); err != nil {
			return &Error{Reason: ReasonBadProfile, Err: fmt.Errorf("%s%w", prefix(where), err)}
		}
		f.Name, f.SystemName, f.Filename = truncate(f.Name, l.MaxSymbolLength), truncate(f.SystemName, l.MaxSymbolLength), truncate(f.Filename, l.MaxSymbolLength)
	}
	for _, m := range p.Mapping {
		if err := utf8Field(fmt.Sprintf("mapping %d", m.ID), m.File, m.BuildID); err != nil {
			return &Error{Reason: ReasonBadProfile, Err: fmt.Errorf("%s%w", prefix(where), err)}
		}
		m.File, m.BuildID = truncate(m.File, l.MaxSymbolLength), truncate(m.BuildID, l.MaxSymbolLength)
	}
	if l.MaxStackDepth > 0 {
		for _, loc := range p.Location {
			if len(loc.Line) > l.MaxStackDepth {
				return limitError(where, limits.Invalid("max-stack-depth", fmt.Sprintf("location %d with inlined frames", loc.ID), len(loc.Line), l.MaxStackDepth))
			}
		}
	}
	sums := make([]int64, len(p.SampleType))
	for si, s := range p.Sample {
		if n := len(s.Label) + len(s.NumLabel); l.MaxLabelsPerSample > 0 && n > l.MaxLabelsPerSample {
			e := limits.Invalid("max-labels-per-sample", "labels", n, l.MaxLabelsPerSample)
			e.Where = fmt.Sprintf("sample %d", si)
			return limitError(where, e)
		}
		for k, vs := range s.Label {
			if err := utf8Field(fmt.Sprintf("sample %d label", si), append([]string{k}, vs...)...); err != nil {
				return &Error{Reason: ReasonBadLabels, Err: fmt.Errorf("%s%w", prefix(where), err)}
			}
		}
		for k, us := range s.NumUnit {
			if err := utf8Field(fmt.Sprintf("sample %d numeric label", si), append([]string{k}, us...)...); err != nil {
				return &Error{Reason: ReasonBadLabels, Err: fmt.Errorf("%s%w", prefix(where), err)}
			}
		}
		for k := range s.NumLabel {
			if err := utf8Field(fmt.Sprintf("sample %d numeric label", si), k); err != nil {
				return &Error{Reason: ReasonBadLabels, Err: fmt.Errorf("%s%w", prefix(where), err)}
			}
		}
		for ti, v := range s.Value {
			if ti < len(sums) {
				if sums[ti] = addAbs(sums[ti], v); sums[ti] < 0 {
					return errorf(ReasonBadProfile, "%ssample values of type %q sum beyond the int64 range at sample %d", prefix(where), p.SampleType[ti].Type, si)
				}
			}
		}
		if l.MaxStackDepth > 0 {
			s.Location = truncateStack(s.Location, l.MaxStackDepth)
		}
	}
	return nil
}

// truncateStack keeps the root-side frames of a stack (Location[0] is the
// leaf) within depth frames, counting every inlined line as a frame.
func truncateStack(locs []*profile.Location, depth int) []*profile.Location {
	frames := 0
	for i := len(locs) - 1; i >= 0; i-- {
		frames += max(1, len(locs[i].Line))
		if frames > depth {
			return locs[i+1:]
		}
	}
	return locs
}

// addAbs adds |v| to sum, returning -1 on overflow.
func addAbs(sum, v int64) int64 {
	if v < 0 {
		if v == math.MinInt64 {
			return -1
		}
		v = -v
	}
	if sum > math.MaxInt64-v {
		return -1
	}
	return sum + v
}

// truncate cuts s to at most n bytes on a rune boundary (n 0: no limit).
func truncate(s string, n int) string {
	if n <= 0 || len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

func utf8Field(what string, values ...string) error {
	for _, v := range values {
		if !utf8.ValidString(v) {
			return fmt.Errorf("%s: %s is not valid UTF-8", what, quoteInvalid(v))
		}
	}
	return nil
}

// quoteInvalid quotes the start of s, invalid bytes escaped.
func quoteInvalid(s string) string {
	if len(s) > 64 {
		return fmt.Sprintf("%+q… (%d bytes)", s[:64], len(s))
	}
	return fmt.Sprintf("%+q", s)
}

// checkLabels refuses series labels that are not UTF-8 or exceed the size
// limits; what names them in the message.
func (in *Ingester) checkLabels(where string, ls storage.Labels) error {
	l := in.lim
	for _, lb := range ls {
		if err := utf8Field(fmt.Sprintf("label %s", quoteInvalid(lb.Name)), lb.Name, lb.Value); err != nil {
			return &Error{Reason: ReasonBadLabels, Err: fmt.Errorf("%s%w", prefix(where), err)}
		}
		if l.MaxLabelNameLength > 0 && len(lb.Name) > l.MaxLabelNameLength {
			return limitError(where, limits.Invalid("max-label-name-length", fmt.Sprintf("label name %q… of", truncate(lb.Name, 32)), fmt.Sprintf("%d bytes", len(lb.Name)), fmt.Sprintf("%d bytes", l.MaxLabelNameLength)))
		}
		if l.MaxLabelValueLength > 0 && len(lb.Value) > l.MaxLabelValueLength {
			return limitError(where, limits.Invalid("max-label-value-length", fmt.Sprintf("value of label %q of", lb.Name), fmt.Sprintf("%d bytes", len(lb.Value)), fmt.Sprintf("%d bytes", l.MaxLabelValueLength)))
		}
	}
	return nil
}

// checkWrites checks the final series of a request: labels (UTF-8, sizes,
// count), frame names (UTF-8, truncated) and the tenant's series limit. It
// adds the tenant label. Nothing is stored when it fails.
func (in *Ingester) checkWrites(ctx context.Context, ws []storage.Write) ([]storage.Write, error) {
	id := tenant.From(ctx)
	keys := make([]string, 0, len(ws))
	seenResult := make(map[any]bool)
	for i := range ws {
		w := &ws[i]
		where := fmt.Sprintf("series %s", w.Labels.Get(model.LabelNameServiceName))
		if tv := tenant.LabelValue(id); tv != "" {
			w.Labels = append(storageLabelsWithout(w.Labels, tenant.Label), storage.Label{Name: tenant.Label, Value: tv})
			w.Labels.Sort()
		} else {
			w.Labels = storageLabelsWithout(w.Labels, tenant.Label)
		}
		if err := in.checkLabels(where, w.Labels); err != nil {
			return nil, err
		}
		// Count what the client sent: the store's own labels do not count.
		if n := countUserLabels(w.Labels); in.lim.MaxLabelNamesPerSeries > 0 && n > in.lim.MaxLabelNamesPerSeries {
			return nil, limitError(where, limits.Invalid("max-label-names-per-series", "label names", n, in.lim.MaxLabelNamesPerSeries))
		}
		if !seenResult[w.Result] {
			seenResult[w.Result] = true
			for j, n := range w.Result.Names {
				if !utf8.ValidString(n) {
					return nil, errorf(ReasonBadProfile, "%sframe name %s is not valid UTF-8", prefix(where), quoteInvalid(n))
				}
				w.Result.Names[j] = truncate(n, in.lim.MaxSymbolLength)
			}
		}
		keys = append(keys, w.Labels.Key())
	}
	if in.series != nil {
		if err := in.series.Admit(id, keys); err != nil {
			return nil, &Error{Reason: ReasonLimit, Err: err}
		}
	}
	return ws, nil
}

func storageLabelsWithout(ls storage.Labels, name string) storage.Labels {
	out := make(storage.Labels, 0, len(ls)+1)
	for _, l := range ls {
		if l.Name != name {
			out = append(out, l)
		}
	}
	return out
}

func countUserLabels(ls storage.Labels) int {
	n := 0
	for _, l := range ls {
		if !isReserved(l.Name) {
			n++
		}
	}
	return n
}

// gunzipLimit decompresses gzip data (other data is returned as is),
// reading at most max+1 bytes: a longer result means the limit was passed.
func gunzipLimit(data []byte, max int64) ([]byte, error) {
	if len(data) < 2 || data[0] != 0x1f || data[1] != 0x8b {
		return data, nil
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, errorf(ReasonBadProfile, "invalid gzip data: %v", err)
	}
	out, err := io.ReadAll(io.LimitReader(zr, max+1))
	if err != nil {
		return nil, errorf(ReasonBadProfile, "invalid gzip data after %d bytes: %v (truncated?)", len(out), err)
	}
	return out, nil
}

// countStored updates the metrics after a commit. It must not fail the
// request: the profiles are stored, and a client retry would duplicate them.
func (in *Ingester) countStored(stats storage.AppendStats, writes []storage.Write) {
	defer func() {
		if r := recover(); r != nil {
			in.log.Error("ingest metrics failed after the profiles were stored", "panic", fmt.Sprint(r))
		}
	}()
	in.m.StoredBytes.Add(float64(stats.Bytes))
	for _, w := range writes {
		in.m.ProfilesIngested.WithLabelValues(w.Series.Type.String()).Inc()
		in.m.ProfilesReceived.Inc(w.Series.Type.String(), w.Labels.Get(model.LabelNameServiceName))
	}
}

// ingestStatus is the HTTP status of a refusal by a limit or a full disk.
func ingestStatus(err error) (int, bool) {
	var le *limits.Error
	switch {
	case errors.As(err, &le):
		return le.Status, true
	case errors.Is(err, storage.ErrDiskFull):
		return http.StatusInsufficientStorage, true
	case errors.Is(err, storage.ErrFailed):
		return http.StatusServiceUnavailable, true
	}
	return 0, false
}

// pushCode is the connect code of a refusal by a limit or a full disk.
func pushCode(err error) (connect.Code, bool) {
	var le *limits.Error
	switch {
	case errors.As(err, &le):
		if le.Status == http.StatusRequestEntityTooLarge {
			return connect.CodeResourceExhausted, true
		}
		return connect.CodeInvalidArgument, true
	case errors.Is(err, storage.ErrDiskFull):
		return connect.CodeResourceExhausted, true
	case errors.Is(err, storage.ErrFailed):
		return connect.CodeUnavailable, true
	}
	return 0, false
}

// gunzipBody reads a gzip request body and returns its decompressed
// reader. The decompressed size is measured first, without keeping it, so
// a small body inflating past -max-decompressed-bytes is refused (413)
// without the memory it would take.
func (in *Ingester) gunzipBody(r io.Reader) (io.Reader, error) {
	raw, err := io.ReadAll(r)
	if err != nil {
		return nil, readError(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return nil, errorf(ReasonBadRequest, "invalid gzip request body: %v", err)
	}
	if max := in.lim.MaxDecompressedBytes; max > 0 {
		n, err := io.Copy(io.Discard, io.LimitReader(zr, max+1))
		if err != nil {
			return nil, errorf(ReasonBadRequest, "invalid gzip request body after %d bytes: %v", n, err)
		}
		if n > max {
			return nil, limitError("", limits.TooLarge("max-decompressed-bytes", "decompressed request body of", fmt.Sprintf("more than %d bytes", max), fmt.Sprintf("%d bytes", max)))
		}
		if zr, err = gzip.NewReader(bytes.NewReader(raw)); err != nil {
			return nil, errorf(ReasonBadRequest, "invalid gzip request body: %v", err)
		}
	}
	return zr, nil
}
