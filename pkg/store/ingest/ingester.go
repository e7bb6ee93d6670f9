// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Package ingest receives profiles: Pyroscope's HTTP /ingest (pprof, with or
// without pyroscope-go's multipart form, and folded stacks) and the connect
// push.v1.PusherService/Push. Every request is converted in full before
// anything is written, then stored in one durable batch, so a bad request
// stores nothing.
package ingest

import (
	"context"
	"log/slog"
	"time"

	"github.com/google/pprof/profile"

	"github.com/emberscope/emberscope/pkg/profile/model"
	"github.com/emberscope/emberscope/pkg/profile/pprofconv"
	"github.com/emberscope/emberscope/pkg/profile/stackrepair"
	"github.com/emberscope/emberscope/pkg/store/limits"
	"github.com/emberscope/emberscope/pkg/store/metrics"
	"github.com/emberscope/emberscope/pkg/store/storage"
	"github.com/emberscope/emberscope/pkg/store/tenant"
)

// Options configure an Ingester.
type Options struct {
	DB      *storage.DB
	Metrics *metrics.Metrics
	Logger  *slog.Logger
	// MaxAge refuses profiles older than this; 0 accepts any time.
	MaxAge time.Duration
	// MaxBodyBytes bounds a request body; 0 means Limits.MaxBodyBytes.
	MaxBodyBytes int64
	// Limits bound what is accepted (see package limits); RejectOlderThan
	// is MaxAge when MaxAge is set.
	Limits limits.Limits
	// Series counts each tenant's active series; nil does not limit them.
	Series *limits.SeriesTracker
	// Observe, when set, is given every batch once it is stored, with the
	// tenant it was stored for (recording rules); it must not block.
	Observe func(tenant string, writes []storage.Write)
}

// Ingester converts and stores profiles.
type Ingester struct {
	db      *storage.DB
	m       *metrics.Metrics
	log     *slog.Logger
	maxBody int64
	now     func() time.Time
	lim     limits.Limits
	series  *limits.SeriesTracker
	observe func(tenant string, writes []storage.Write)
}

// New returns an Ingester.
func New(o Options) *Ingester {
	if o.MaxBodyBytes <= 0 {
		o.MaxBodyBytes = o.Limits.MaxBodyBytes
	}
	if o.MaxBodyBytes <= 0 {
		o.MaxBodyBytes = 1 << 62
	}
	if o.MaxAge > 0 {
		o.Limits.RejectOlderThan = o.MaxAge
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return &Ingester{db: o.DB, m: o.Metrics, log: o.Logger, maxBody: o.MaxBodyBytes, now: time.Now, lim: o.Limits, series: o.Series, observe: o.Observe}
}

// Input is one parsed profile with what the request said about it.
type Input struct {
	Profile *profile.Profile
	// Labels are the request's series labels (service_name included).
	Labels storage.Labels
	Naming pprofconv.Naming
	// DefaultTime places the profile when it carries no time of its own.
	DefaultTime time.Time
	// Where names the input in error messages ("series 2 sample 0").
	Where string
}

// Store stores inputs for the anonymous tenant (see StoreContext).
func (in *Ingester) Store(inputs []Input) error { return in.StoreContext(context.Background(), inputs) }

// StoreContext checks and converts every input and stores them all in one
// batch for the tenant of ctx; when any is refused, nothing is stored.
func (in *Ingester) StoreContext(ctx context.Context, inputs []Input) error {
	var writes []storage.Write
	for _, inp := range inputs {
		if err := in.checkProfile(inp.Where, inp.Profile); err != nil {
			return err
		}
		if err := in.checkLabels(inp.Where, inp.Labels); err != nil {
			return err
		}
		ws, err := in.writes(inp)
		if err != nil {
			return err
		}
		writes = append(writes, ws...)
	}
	writes, err := in.checkWrites(ctx, writes)
	if err != nil {
		return err
	}
	stats, err := in.db.Append(writes)
	if err != nil {
		return &Error{Reason: ReasonStorage, Err: err}
	}
	in.countStored(stats, writes)
	if in.observe != nil {
		in.observe(tenant.From(ctx), writes)
	}
	return nil
}

func (in *Ingester) writes(inp Input) ([]storage.Write, error) {
	p := inp.Profile
	ts := inp.DefaultTime
	if p.TimeNanos != 0 {
		ts = time.Unix(0, p.TimeNanos)
	}
	if ts.IsZero() {
		ts = in.now()
	}
	if err := in.checkTime(inp.Where, ts); err != nil {
		return nil, err
	}
	if stackrepair.IsGo(p) {
		stackrepair.Repair(p)
	}
	res, err := pprofconv.Convert(p, pprofconv.Options{Naming: inp.Naming})
	if err != nil {
		return nil, errorf(ReasonBadLabels, "%sinvalid profile (%s): %v", prefix(inp.Where), describe(p), err)
	}
	writes := make([]storage.Write, 0, len(res.Series))
	// One server-side id per ingested profile, shared by its series (as
	// Pyroscope: the push's sample ID is not it).
	id := storage.NewProfileID()
	for i := range res.Series {
		s := &res.Series[i]
		writes = append(writes, storage.Write{
			Labels:    seriesLabels(inp.Labels, s),
			Time:      ts.UnixNano(),
			Result:    res,
			Series:    s,
			ProfileID: id,
		})
	}
	return writes, nil
}

func prefix(where string) string {
	if where == "" {
		return ""
	}
	return where + ": "
}

// seriesLabels joins request labels, sample labels (which win, except over
// service_name) and the profile type labels.
func seriesLabels(base storage.Labels, s *pprofconv.Series) storage.Labels {
	ls := make(storage.Labels, 0, len(base)+len(s.Labels)+6)
	fromSample := make(map[string]bool, len(s.Labels))
	for _, l := range s.Labels {
		if l.Name == model.LabelNameServiceName || isReserved(l.Name) {
			continue
		}
		fromSample[l.Name] = true
		ls = append(ls, l)
	}
	for _, l := range base {
		if !fromSample[l.Name] {
			ls = append(ls, l)
		}
	}
	t := s.Type
	ls = append(ls,
		storage.Label{Name: model.LabelNameServiceNamePrivate, Value: ls.Get(model.LabelNameServiceName)},
		storage.Label{Name: model.LabelNameProfileName, Value: t.Name},
		storage.Label{Name: model.LabelNameProfileType, Value: t.String()},
		storage.Label{Name: model.LabelNameType, Value: t.SampleType},
		storage.Label{Name: model.LabelNameUnit, Value: t.SampleUnit},
		storage.Label{Name: model.LabelNamePeriodType, Value: t.PeriodType},
		storage.Label{Name: model.LabelNamePeriodUnit, Value: t.PeriodUnit},
	)
	ls.Sort()
	return ls
}

func isReserved(name string) bool { return len(name) >= 2 && name[:2] == "__" }
