// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Package source defines what the datasource needs from a profile server,
// in terms of our own types. Each client (Pyroscope's connect API, Parca's
// REST API) implements Source and converts its answers into these types, so
// nothing above a client knows which server answered.
package source

import (
	"context"
	"errors"
	"time"

	"github.com/google/pprof/profile"

	"github.com/emberscope/emberscope/pkg/profile/flame"
	"github.com/emberscope/emberscope/pkg/profile/gopgo"
	"github.com/emberscope/emberscope/pkg/profile/model"
)

// TimeRange is a closed time range.
type TimeRange struct {
	From time.Time
	To   time.Time
}

// Selection picks the profiles of one type whose series match a selector.
type Selection struct {
	ProfileTypeID string
	// LabelSelector holds Prometheus matchers such as {service_name="api"}; "" means {}.
	LabelSelector string
	Range         TimeRange
	// SpanSelector, when not empty, keeps only the samples of these spans
	// (16 hex digit span ids, as otel-profiling-go labels samples with
	// span_id); flamegraphs only.
	SpanSelector []string
	// ProfileIDs, when not empty, keeps only these profiles (the ids the
	// server gave them, as exemplars carry them); flamegraphs only.
	ProfileIDs []string
	// CallSite, when not empty, keeps only the samples whose root-side
	// frames are these function names, in order from the root (Pyroscope's
	// StackTraceSelector.call_site). Only a CallSiteSelector is asked with it;
	// MergeStacks and MergeProfile only.
	CallSite []string
}

// LabelsRequest scopes label names and values to matchers and a time range.
type LabelsRequest struct {
	// Matchers are selectors such as {service_name="api"}; each may name a
	// profile type through __profile_type__.
	Matchers []string
	Range    TimeRange
}

// StacksRequest asks for the merged stacks of a selection.
type StacksRequest struct {
	Selection
	// MaxNodes bounds the tree; 0 lets the server choose.
	MaxNodes int64
	// GoPGO, when set, cuts the stacks of a MergeProfile answer for the Go
	// compiler's profile-guided optimisation (Pyroscope's go_pgo stack
	// trace selector); MergeStacks ignores it, as Pyroscope does.
	GoPGO *gopgo.Options
}

// SeriesRequest asks for the summed values of a selection over time.
type SeriesRequest struct {
	Selection
	GroupBy []string
	Step    time.Duration
	// Exemplars asks for the individual profiles behind each point.
	Exemplars bool
}

// Point is one value of a series.
type Point struct {
	Time  time.Time
	Value float64
	// Exemplars are profiles (or spans) behind the point, when asked for.
	Exemplars []Exemplar
}

// Exemplar is one profile or one span behind a point or a heatmap cell: a
// profile exemplar has a ProfileID, a span exemplar a SpanID and, when the
// server knows it, a TraceID.
type Exemplar struct {
	Time      time.Time
	ProfileID string
	SpanID    string
	TraceID   string
	Value     float64
	// Labels are the profile's labels beyond the series'.
	Labels model.Labels
}

// Series is the values over time of one label set.
type Series struct {
	Labels model.Labels
	Points []Point
}

// Source is a profile server seen through our types.
type Source interface {
	ProfileTypes(ctx context.Context, r TimeRange) ([]model.ProfileType, error)
	LabelNames(ctx context.Context, r LabelsRequest) ([]string, error)
	LabelValues(ctx context.Context, name string, r LabelsRequest) ([]string, error)
	MergeStacks(ctx context.Context, r StacksRequest) (*flame.Tree, error)
	Series(ctx context.Context, r SeriesRequest) ([]Series, error)
	MergeProfile(ctx context.Context, r StacksRequest) (*profile.Profile, error)
}

// CallSiteSelector is the optional capability of a Source whose server
// selects the samples of a call site itself (Pyroscope's and the embedded
// store's StackTraceSelector). For any other Source the datasource filters
// the merged profile to the call site.
type CallSiteSelector interface {
	SelectsCallSite() bool
}

// SelectsCallSite tells whether src's server selects a call site itself.
func SelectsCallSite(src Source) bool {
	s, ok := src.(CallSiteSelector)
	return ok && s.SelectsCallSite()
}

// HeatmapSlot is one step of a heatmap: how many profiles (or spans) had a
// total in each value range, the i-th range starting at YMin[i].
type HeatmapSlot struct {
	Time      time.Time
	YMin      []float64
	Counts    []int32
	Exemplars []Exemplar
}

// HeatmapRequest asks how the totals of a selection's profiles, or of its
// spans, are distributed per step.
type HeatmapRequest struct {
	Selection
	Step time.Duration
	// Spans counts the totals of single spans (the samples that carry one
	// span_id) instead of whole profiles.
	Spans bool
	// Exemplars asks for exemplars: profile ids, or span and trace ids.
	Exemplars bool
}

// Heatmapper is the optional capability of a Source whose server can tell how
// the totals of the selection's individual profiles are distributed, per
// step (Pyroscope and the embedded store can; Parca cannot).
type Heatmapper interface {
	Heatmap(ctx context.Context, r HeatmapRequest) ([]HeatmapSlot, error)
}

// ErrNoHeatmap is the error of Heatmap for a Source without the capability.
var ErrNoHeatmap = errors.New("the profile server has no heatmap API")

// Heatmap asks src for the heatmap of sel when it is a Heatmapper, and
// returns ErrNoHeatmap when it is not.
func Heatmap(ctx context.Context, src Source, r HeatmapRequest) ([]HeatmapSlot, error) {
	hm, ok := src.(Heatmapper)
	if !ok {
		return nil, ErrNoHeatmap
	}
	return hm.Heatmap(ctx, r)
}
