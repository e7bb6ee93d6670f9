// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package rangesplit

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/google/pprof/profile"
	"golang.org/x/sync/errgroup"

	"github.com/emberscope/emberscope/pkg/datasource/source"
	"github.com/emberscope/emberscope/pkg/profile/flame"
	"github.com/emberscope/emberscope/pkg/profile/model"
)

// DefaultConcurrency is how many pieces of one call run at once.
const DefaultConcurrency = 4

// ProbeRange is the range Probe asks profile types over to learn the limit.
const ProbeRange = 7 * 24 * time.Hour

// Options configure a Source.
type Options struct {
	// MaxQueryLength is the server's longest query range as the settings
	// give it; 0 learns it from the server's first refusal.
	MaxQueryLength time.Duration
	// Concurrency bounds the pieces of one call in flight (default 4).
	Concurrency int
}

// Origin says where the limit a Source uses comes from.
type Origin uint8

const (
	// Unknown: not set, and the server has refused nothing yet.
	Unknown Origin = iota
	// Configured: the datasource's maxQueryLength setting.
	Configured
	// Learned: read from the server's refusal.
	Learned
	// NoneFound: Probe's call over ProbeRange was answered.
	NoneFound
)

// Source is a source.Source whose calls stay within the server's longest
// query range. It is safe for concurrent use.
type Source struct {
	inner source.Source
	conc  int

	mu     sync.RWMutex
	limit  time.Duration
	origin Origin
}

var (
	_ source.Source       = (*Source)(nil)
	_ source.Heatmapper   = (*Source)(nil)
	_ source.VectorSource = (*Source)(nil)
)

// New wraps inner.
func New(inner source.Source, opts Options) *Source {
	s := &Source{inner: inner, conc: opts.Concurrency}
	if s.conc <= 0 {
		s.conc = DefaultConcurrency
	}
	if opts.MaxQueryLength > 0 {
		s.limit, s.origin = opts.MaxQueryLength, Configured
	}
	return s
}

// SelectsCallSite tells whether the wrapped source's server selects a call
// site itself; every piece of a split call carries the request's call site.
func (s *Source) SelectsCallSite() bool { return source.SelectsCallSite(s.inner) }

// Inner is the wrapped source.
func (s *Source) Inner() source.Source { return s.inner }

// Limit returns the limit in use (0 when none is known) and its origin.
func (s *Source) Limit() (time.Duration, Origin) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.limit, s.origin
}

// learn keeps a limit the server named; a configured limit gives way to a
// smaller one the server enforces.
func (s *Source) learn(l time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.origin != Learned && s.origin != Configured || l < s.limit || s.limit == 0 {
		s.limit, s.origin = l, Learned
	}
}

// Probe learns the server's limit when neither the settings nor a refusal
// told it: it lists the profile types of ProbeRange up to now in one call,
// which a server with a shorter limit refuses naming its limit (a cheap
// metadata call; its refusal is expected and not an error). An answered
// call means no limit up to ProbeRange. Other failures are returned.
func (s *Source) Probe(ctx context.Context, now time.Time) error {
	if _, o := s.Limit(); o != Unknown {
		return nil
	}
	_, err := s.inner.ProfileTypes(ctx, source.TimeRange{From: now.Add(-ProbeRange), To: now})
	if l, ok := LimitOf(err); ok {
		s.learn(l)
		return nil
	}
	if err != nil {
		return err
	}
	s.mu.Lock()
	if s.origin == Unknown {
		s.origin = NoneFound
	}
	s.mu.Unlock()
	return nil
}

// run calls whole when r fits the known limit; when it does not, or when
// the server refuses it naming a limit, it calls split with that limit.
// A piece refused with a smaller limit is split again with that one.
func (s *Source) run(ctx context.Context, r source.TimeRange, whole func() error, split func(limit time.Duration) error) error {
	n := length(r)
	limit, _ := s.Limit()
	if limit <= 0 || n <= limit {
		err := whole()
		l, ok := LimitOf(err)
		if !ok || n <= l {
			return err
		}
		s.learn(l)
		limit = l
	}
	for attempt := 0; ; attempt++ {
		err := split(limit)
		l, ok := LimitOf(err)
		if !ok || l >= limit || attempt == 2 {
			return err
		}
		s.learn(l)
		limit = l
	}
}

// each runs fn for the pieces, s.conc at a time, and records the split.
func each[P any](ctx context.Context, s *Source, limit time.Duration, pieces []P, fn func(ctx context.Context, i int, p P) error) error {
	record(ctx, len(pieces), limit)
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(s.conc)
	for i, p := range pieces {
		g.Go(func() error { return fn(gctx, i, p) })
	}
	return g.Wait()
}

// ProfileTypes lists the profile types with data in any piece of r.
func (s *Source) ProfileTypes(ctx context.Context, r source.TimeRange) ([]model.ProfileType, error) {
	var out []model.ProfileType
	err := s.run(ctx, r, func() (err error) {
		out, err = s.inner.ProfileTypes(ctx, r)
		return err
	}, func(limit time.Duration) error {
		pieces, err := disjoint(r, limit)
		if err != nil {
			return err
		}
		parts := make([][]model.ProfileType, len(pieces))
		if err := each(ctx, s, limit, pieces, func(ctx context.Context, i int, p source.TimeRange) (err error) {
			parts[i], err = s.inner.ProfileTypes(ctx, p)
			return err
		}); err != nil {
			return err
		}
		out = unionTypes(parts)
		return nil
	})
	return out, err
}

// LabelNames unions the label names of the pieces.
func (s *Source) LabelNames(ctx context.Context, r source.LabelsRequest) ([]string, error) {
	return s.strings(ctx, r, func(ctx context.Context, r source.LabelsRequest) ([]string, error) { return s.inner.LabelNames(ctx, r) })
}

// LabelValues unions the label values of the pieces.
func (s *Source) LabelValues(ctx context.Context, name string, r source.LabelsRequest) ([]string, error) {
	return s.strings(ctx, r, func(ctx context.Context, r source.LabelsRequest) ([]string, error) {
		return s.inner.LabelValues(ctx, name, r)
	})
}

func (s *Source) strings(ctx context.Context, r source.LabelsRequest, call func(context.Context, source.LabelsRequest) ([]string, error)) ([]string, error) {
	var out []string
	err := s.run(ctx, r.Range, func() (err error) {
		out, err = call(ctx, r)
		return err
	}, func(limit time.Duration) error {
		pieces, err := disjoint(r.Range, limit)
		if err != nil {
			return err
		}
		parts := make([][]string, len(pieces))
		if err := each(ctx, s, limit, pieces, func(ctx context.Context, i int, p source.TimeRange) (err error) {
			pr := r
			pr.Range = p
			parts[i], err = call(ctx, pr)
			return err
		}); err != nil {
			return err
		}
		out = unionStrings(parts)
		return nil
	})
	return out, err
}

// MergeStacks sums the pieces' trees node for node, then cuts the sum to
// MaxNodes as the server would have cut the whole range's tree.
func (s *Source) MergeStacks(ctx context.Context, r source.StacksRequest) (*flame.Tree, error) {
	var out *flame.Tree
	err := s.run(ctx, r.Range, func() (err error) {
		out, err = s.inner.MergeStacks(ctx, r)
		return err
	}, func(limit time.Duration) error {
		pieces, err := disjoint(r.Range, limit)
		if err != nil {
			return err
		}
		parts := make([]*flame.Tree, len(pieces))
		if err := each(ctx, s, limit, pieces, func(ctx context.Context, i int, p source.TimeRange) (err error) {
			pr := r
			pr.Range = p
			parts[i], err = s.inner.MergeStacks(ctx, pr)
			return err
		}); err != nil {
			return err
		}
		out = mergeTrees(parts, int(r.MaxNodes))
		return nil
	})
	return out, err
}

// MergeProfile merges the pieces' pprof profiles (google/pprof's Merge).
func (s *Source) MergeProfile(ctx context.Context, r source.StacksRequest) (*profile.Profile, error) {
	var out *profile.Profile
	err := s.run(ctx, r.Range, func() (err error) {
		out, err = s.inner.MergeProfile(ctx, r)
		return err
	}, func(limit time.Duration) error {
		pieces, err := disjoint(r.Range, limit)
		if err != nil {
			return err
		}
		parts := make([]*profile.Profile, len(pieces))
		if err := each(ctx, s, limit, pieces, func(ctx context.Context, i int, p source.TimeRange) (err error) {
			pr := r
			pr.Range = p
			parts[i], err = s.inner.MergeProfile(ctx, pr)
			return err
		}); err != nil {
			return err
		}
		out, err = mergeProfiles(parts)
		return err
	})
	return out, err
}

// Series asks the pieces of seriesPlan and adds their points per step.
func (s *Source) Series(ctx context.Context, r source.SeriesRequest) ([]source.Series, error) {
	var out []source.Series
	err := s.run(ctx, r.Range, func() (err error) {
		out, err = s.inner.Series(ctx, r)
		return err
	}, func(limit time.Duration) error {
		pieces, err := seriesPlan(r.Range, r.Step, limit)
		if err != nil {
			return err
		}
		parts := make([][]source.Series, len(pieces))
		if err := each(ctx, s, limit, pieces, func(ctx context.Context, i int, p seriesPiece) (err error) {
			pr := r
			pr.Range, pr.Step = p.TimeRange, p.Step
			parts[i], err = s.inner.Series(ctx, pr)
			return err
		}); err != nil {
			return err
		}
		out = mergeSeries(r.Range, r.Step, pieces, parts)
		return nil
	})
	return out, err
}

// Heatmap forwards to a server with a heatmap API (source.ErrNoHeatmap
// otherwise). A range over the limit is split as a series is when its step
// fits the limit; the slots of the pieces are concatenated, each piece's
// value ranges its own. A longer step cannot be split and is sent whole.
func (s *Source) Heatmap(ctx context.Context, r source.HeatmapRequest) ([]source.HeatmapSlot, error) {
	step := r.Step
	if _, ok := s.inner.(source.Heatmapper); !ok {
		return nil, source.ErrNoHeatmap
	}
	var out []source.HeatmapSlot
	err := s.run(ctx, r.Range, func() (err error) {
		out, err = source.Heatmap(ctx, s.inner, r)
		return err
	}, func(limit time.Duration) error {
		if step <= 0 || step > limit {
			var err error
			out, err = source.Heatmap(ctx, s.inner, r)
			return err
		}
		pieces, err := seriesPlan(r.Range, step, limit)
		if err != nil {
			return err
		}
		parts := make([][]source.HeatmapSlot, len(pieces))
		if err := each(ctx, s, limit, pieces, func(ctx context.Context, i int, p seriesPiece) (err error) {
			pr := r
			pr.Range, pr.Step = p.TimeRange, p.Step
			parts[i], err = source.Heatmap(ctx, s.inner, pr)
			return err
		}); err != nil {
			return err
		}
		out = out[:0]
		for i, slots := range parts {
			for _, sl := range slots {
				if i > 0 && sl.Time.UnixMilli() == pieces[i].From.UnixMilli() {
					continue // counted in the piece before's last slot
				}
				out = append(out, sl)
			}
		}
		return nil
	})
	return out, err
}

// Vectors forwards to a server that keeps per-profile vectors (only the
// embedded store, which has no query length limit on them).
func (s *Source) Vectors(ctx context.Context, sel source.Selection) ([]source.ProfileVector, error) {
	vs, ok := s.inner.(source.VectorSource)
	if !ok {
		return nil, fmt.Errorf("%w", source.ErrNoVectors)
	}
	return vs.Vectors(ctx, sel)
}
