// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Package limits holds the embedded store's limits on what it accepts and
// how much work one query may do, with Pyroscope's defaults, their flags,
// their listing on /metrics, and the error a refusal carries.
//
// Every limit is off when 0, as in Pyroscope.
package limits

import (
	"flag"
	"fmt"
	"net/http"
	"runtime"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Limits bound requests, profiles, series and queries.
type Limits struct {
	// MaxBodyBytes bounds a request body as received (before decompression).
	MaxBodyBytes int64
	// MaxDecompressedBytes bounds the decompressed size of one request.
	MaxDecompressedBytes int64
	// MaxProfileBytes bounds one uncompressed profile.
	MaxProfileBytes int64
	// MaxSamples bounds the samples of one profile.
	MaxSamples int
	// MaxStackDepth truncates deeper stacks, dropping their leaf-side frames.
	MaxStackDepth int
	// MaxLabelsPerSample bounds the labels of one pprof sample.
	MaxLabelsPerSample int
	// MaxLabelNameLength and MaxLabelValueLength bound series label sizes in bytes.
	MaxLabelNameLength  int
	MaxLabelValueLength int
	// MaxLabelNamesPerSeries bounds the labels of one series.
	MaxLabelNamesPerSeries int
	// MaxSymbolLength truncates longer function and file names (bytes).
	MaxSymbolLength int
	// MaxSeriesPerTenant bounds the series with profiles in the last hour, per tenant.
	MaxSeriesPerTenant int
	// RejectOlderThan and RejectNewerThan bound profile times around now at ingest.
	RejectOlderThan time.Duration
	RejectNewerThan time.Duration
	// Retention deletes profiles older than this.
	Retention time.Duration
	// RetentionBytes deletes the oldest profiles while the database is larger.
	RetentionBytes int64
	// MaxConcurrentQueries bounds the merge, series and heatmap queries
	// running at once; MaxQueuedQueries more wait, the rest get 429.
	MaxConcurrentQueries int
	MaxQueuedQueries     int
	// MaxQueryLength refuses querier calls over a longer range with
	// Pyroscope's max_query_length error (querylength.go). Off by default:
	// the store answers any range; Pyroscope's default is one day.
	MaxQueryLength time.Duration
}

// Defaults returns Pyroscope's defaults (see the README's "Store limits").
func Defaults() Limits {
	return Limits{
		MaxBodyBytes:           256 << 20,
		MaxDecompressedBytes:   512 << 20,
		MaxProfileBytes:        4 << 20,
		MaxSamples:             16000,
		MaxStackDepth:          1000,
		MaxLabelsPerSample:     100,
		MaxLabelNameLength:     1024,
		MaxLabelValueLength:    2048,
		MaxLabelNamesPerSeries: 30,
		MaxSymbolLength:        65535,
		MaxSeriesPerTenant:     5000,
		RejectOlderThan:        time.Hour,
		RejectNewerThan:        10 * time.Minute,
		Retention:              30 * 24 * time.Hour,
		MaxConcurrentQueries:   runtime.NumCPU(),
		MaxQueuedQueries:       64,
	}
}

// Backfill returns the defaults without the ingest time window and without
// retention: for replaying recorded profiles with fixed dates.
func Backfill() Limits {
	l := Defaults()
	l.RejectOlderThan, l.RejectNewerThan, l.Retention = 0, 0, 0
	return l
}

// RegisterFlags adds one flag per limit to fs, defaulting to l's values.
func (l *Limits) RegisterFlags(fs *flag.FlagSet) {
	fs.Int64Var(&l.MaxBodyBytes, "max-body-bytes", l.MaxBodyBytes, "largest request body before decompression, bytes (0: no limit)")
	fs.Int64Var(&l.MaxDecompressedBytes, "max-decompressed-bytes", l.MaxDecompressedBytes, "largest decompressed request, bytes (0: no limit)")
	fs.Int64Var(&l.MaxProfileBytes, "max-profile-bytes", l.MaxProfileBytes, "largest uncompressed profile, bytes (0: no limit)")
	fs.IntVar(&l.MaxSamples, "max-samples", l.MaxSamples, "most samples in one profile (0: no limit)")
	fs.IntVar(&l.MaxStackDepth, "max-stack-depth", l.MaxStackDepth, "deeper stacks lose their leaf-side frames (0: no limit)")
	fs.IntVar(&l.MaxLabelsPerSample, "max-labels-per-sample", l.MaxLabelsPerSample, "most labels on one pprof sample (0: no limit)")
	fs.IntVar(&l.MaxLabelNameLength, "max-label-name-length", l.MaxLabelNameLength, "longest label name, bytes (0: no limit)")
	fs.IntVar(&l.MaxLabelValueLength, "max-label-value-length", l.MaxLabelValueLength, "longest label value, bytes (0: no limit)")
	fs.IntVar(&l.MaxLabelNamesPerSeries, "max-label-names-per-series", l.MaxLabelNamesPerSeries, "most labels on one series (0: no limit)")
	fs.IntVar(&l.MaxSymbolLength, "max-symbol-length", l.MaxSymbolLength, "longer function and file names are truncated, bytes (0: no limit)")
	fs.IntVar(&l.MaxSeriesPerTenant, "max-series-per-tenant", l.MaxSeriesPerTenant, "most series with profiles in the last hour, per tenant (0: no limit)")
	fs.DurationVar(&l.RejectOlderThan, "reject-older-than", l.RejectOlderThan, "refuse profiles older than this at ingest (0: accept any past time)")
	fs.DurationVar(&l.RejectNewerThan, "reject-newer-than", l.RejectNewerThan, "refuse profiles further in the future than this (0: accept any future time)")
	fs.DurationVar(&l.Retention, "retention", l.Retention, "delete profiles older than this (0: keep forever)")
	fs.Int64Var(&l.RetentionBytes, "retention-bytes", l.RetentionBytes, "delete the oldest profiles while the data directory is larger, bytes (0: no limit)")
	fs.IntVar(&l.MaxConcurrentQueries, "max-concurrent-queries", l.MaxConcurrentQueries, "merge/series/heatmap queries running at once (0: no limit)")
	fs.IntVar(&l.MaxQueuedQueries, "max-queued-queries", l.MaxQueuedQueries, "queries waiting for a slot; more are refused with 429")
	fs.DurationVar(&l.MaxQueryLength, "max-query-length", l.MaxQueryLength, "refuse querier calls over a longer range, as Pyroscope's max_query_length (0: no limit; Pyroscope's default is 24h)")
}

// Error is a refusal by a limit: it names the limit, the value seen and
// the maximum, and carries the HTTP status to answer.
type Error struct {
	// Limit is the flag name of the limit (max-samples).
	Limit string
	// Where names the input ("series 0 sample 1").
	Where  string
	Value  string
	Max    string
	Status int
	// Detail says what was measured ("samples").
	Detail string
}

func (e *Error) Error() string {
	w := ""
	if e.Where != "" {
		w = e.Where + ": "
	}
	return fmt.Sprintf("%s%s %s exceeds the limit %s (-%s)", w, e.Detail, e.Value, e.Max, e.Limit)
}

// Exceeded returns the refusal of value by limit max.
func Exceeded(limit, detail string, value, max any, status int) *Error {
	return &Error{Limit: limit, Detail: detail, Value: fmt.Sprint(value), Max: fmt.Sprint(max), Status: status}
}

// TooLarge is Exceeded with 413 Request Entity Too Large.
func TooLarge(limit, detail string, value, max any) *Error {
	return Exceeded(limit, detail, value, max, http.StatusRequestEntityTooLarge)
}

// Invalid is Exceeded with 400 Bad Request.
func Invalid(limit, detail string, value, max any) *Error {
	return Exceeded(limit, detail, value, max, http.StatusBadRequest)
}

// Collector lists the limits on /metrics as emberscope_limit{limit="..."}.
func (l Limits) Collector() prometheus.Collector { return collector{l} }

type collector struct{ l Limits }

var limitDesc = prometheus.NewDesc("emberscope_limit", "The store's limits (0: off); durations in seconds.", []string{"limit"}, nil)

func (c collector) Describe(ch chan<- *prometheus.Desc) { ch <- limitDesc }

func (c collector) Collect(ch chan<- prometheus.Metric) {
	for name, v := range c.l.values() {
		ch <- prometheus.MustNewConstMetric(limitDesc, prometheus.GaugeValue, v, name)
	}
}

func (l Limits) values() map[string]float64 {
	return map[string]float64{
		"max-body-bytes":             float64(l.MaxBodyBytes),
		"max-decompressed-bytes":     float64(l.MaxDecompressedBytes),
		"max-profile-bytes":          float64(l.MaxProfileBytes),
		"max-samples":                float64(l.MaxSamples),
		"max-stack-depth":            float64(l.MaxStackDepth),
		"max-labels-per-sample":      float64(l.MaxLabelsPerSample),
		"max-label-name-length":      float64(l.MaxLabelNameLength),
		"max-label-value-length":     float64(l.MaxLabelValueLength),
		"max-label-names-per-series": float64(l.MaxLabelNamesPerSeries),
		"max-symbol-length":          float64(l.MaxSymbolLength),
		"max-series-per-tenant":      float64(l.MaxSeriesPerTenant),
		"reject-older-than":          l.RejectOlderThan.Seconds(),
		"reject-newer-than":          l.RejectNewerThan.Seconds(),
		"retention":                  l.Retention.Seconds(),
		"retention-bytes":            float64(l.RetentionBytes),
		"max-concurrent-queries":     float64(l.MaxConcurrentQueries),
		"max-queued-queries":         float64(l.MaxQueuedQueries),
		"max-query-length":           l.MaxQueryLength.Seconds(),
	}
}
