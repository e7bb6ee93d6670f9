// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Package store is Emberscope's embedded profile store. It speaks Grafana
// Pyroscope's API on one HTTP handler: POST /ingest and
// push.v1.PusherService/Push to receive profiles, querier.v1.QuerierService
// to query them, settings.v1.RecordingRulesService for recording rules
// (evaluated at ingest, see recording_options.go), GET /ready, GET /metrics
// and POST /flush. Profiles live in a Pebble
// database (package storage); ingest and query are in packages ingest and
// querier.
package store

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"time"

	"connectrpc.com/connect"
	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/grafana/pyroscope/api/gen/proto/go/push/v1/pushv1connect"
	"github.com/grafana/pyroscope/api/gen/proto/go/querier/v1/querierv1connect"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/trace"

	"github.com/emberscope/emberscope/pkg/security/httpguard"
	"github.com/emberscope/emberscope/pkg/store/ingest"
	"github.com/emberscope/emberscope/pkg/store/limits"
	"github.com/emberscope/emberscope/pkg/store/metrics"
	"github.com/emberscope/emberscope/pkg/store/querier"
	"github.com/emberscope/emberscope/pkg/store/rules"
	"github.com/emberscope/emberscope/pkg/store/storage"
	"github.com/emberscope/emberscope/pkg/store/telemetry"
	"github.com/emberscope/emberscope/pkg/store/tenant"
	"github.com/emberscope/emberscope/pkg/store/vectors"
)

// Options configure a Store.
type Options struct {
	// Dir is the data directory (created when missing).
	Dir string
	// Logger receives the store's logs; nil discards them.
	Logger *slog.Logger
	// MaxAge refuses profiles older than this at ingest; 0 (the default)
	// accepts any time.
	MaxAge time.Duration
	// MaxBodyBytes bounds a request body; 0 means Limits.MaxBodyBytes.
	MaxBodyBytes int64
	// Limits bound requests, profiles, series and queries; nil means
	// limits.Defaults() (Pyroscope's defaults, ingest window and retention on).
	Limits *limits.Limits
	// NoIngestWindow accepts profiles of any time (Limits.RejectOlderThan
	// and RejectNewerThan off): for replaying recordings and backfills.
	NoIngestWindow bool
	// NoRetention keeps every profile (Limits.Retention and RetentionBytes off).
	NoRetention bool
	// Multitenancy honours X-Scope-OrgID (required); off, every request
	// belongs to the tenant "anonymous".
	Multitenancy bool
	// AuthToken, when set, is required as a bearer token on push and query.
	AuthToken string
	// ListenAddr and AllowedHosts are the Host header values accepted
	// (besides IP literals and localhost), against DNS rebinding.
	ListenAddr   string
	AllowedHosts []string
	// FS is the file system of the database (tests inject faults); nil is the OS.
	FS vfs.FS
	// WaitOnDiskFull makes Open wait quietly while the disk is full, until done.
	WaitOnDiskFull context.Context
	// Salvage moves a corrupt data directory aside and starts with what
	// of it is readable.
	Salvage bool
	// TracerProvider traces ingest and query requests; nil uses the global
	// provider (which records nothing unless telemetry.SetupTracing enabled it).
	TracerProvider trace.TracerProvider
	// Vectors configure the novelty vector kept per profile and sampling
	// at ingest (off by default).
	Vectors vectors.Options
	// Recording configures recording rules: the provisioned rules, the
	// evaluation interval and where the recorded series go.
	Recording RecordingOptions
}

// Store is an open profile store.
type Store struct {
	db        *storage.DB
	metrics   *metrics.Metrics
	handler   http.Handler
	retention *storage.Retention
	recording *recordingRun
}

// Open opens the store in opts.Dir.
func Open(opts Options) (*Store, error) {
	if opts.Dir == "" {
		return nil, errors.New("store: Options.Dir is required")
	}
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	lim := limits.Defaults()
	if opts.Limits != nil {
		lim = *opts.Limits
	}
	if opts.NoIngestWindow {
		lim.RejectOlderThan, lim.RejectNewerThan = 0, 0
	}
	if opts.NoRetention {
		lim.Retention, lim.RetentionBytes = 0, 0
	}
	if opts.MaxBodyBytes > 0 {
		lim.MaxBodyBytes = opts.MaxBodyBytes
	}
	if opts.MaxAge > 0 {
		lim.RejectOlderThan = opts.MaxAge
	}
	hook, err := vectors.New(opts.Vectors)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	sopts := storage.Options{Dir: opts.Dir, Logger: logger, FS: opts.FS, WaitOnDiskFull: opts.WaitOnDiskFull, Vectors: hook}
	if opts.Salvage {
		if err := storage.Salvage(sopts); err != nil {
			return nil, err
		}
	}
	db, err := storage.Open(sopts)
	if err != nil {
		return nil, err
	}
	m := metrics.New()
	m.Registry.MustRegister(lim.Collector())
	series := limits.NewSeriesTracker(lim.MaxSeriesPerTenant, nil)
	db.RecentSeries(time.Now().Add(-limits.ActiveWindow), func(ls storage.Labels, last time.Time) {
		series.Seen(tenant.FromLabel(ls.Get(tenant.Label)), ls.Key(), last)
	})
	ruleRepo, err := rules.NewRepo(db, opts.Recording.Provisioned)
	if err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("store: %w", err)
	}
	rec, err := startRecording(opts.Recording, db, ruleRepo, m, logger)
	if err != nil {
		_ = db.Close()
		return nil, err
	}
	in := ingest.New(ingest.Options{DB: db, Metrics: m, Logger: logger, Limits: lim, Series: series, Observe: rec.recorder.Observe})
	readMax := connect.WithReadMaxBytes(int(min(lim.MaxDecompressedBytes, math.MaxInt32)))
	if lim.MaxDecompressedBytes <= 0 {
		readMax = connect.WithReadMaxBytes(0)
	}
	api := http.NewServeMux()
	api.Handle("/ingest", in)
	api.Handle(pushv1connect.NewPusherServiceHandler(ingest.NewPusher(in), readMax))
	api.Handle(querierv1connect.NewQuerierServiceHandler(querier.New(db), readMax,
		connect.WithInterceptors(limits.QueryLengthInterceptor(lim.MaxQueryLength, nil), tenant.QuerierInterceptor())))
	vectorsPath, vectorsHandler := vectors.NewService(db, hook.Options().Params.By).Handler()
	api.Handle(vectorsPath, vectorsHandler)
	rulesPath, rulesHandler := rules.NewService(ruleRepo).Handler(readMax)
	api.Handle(rulesPath, rulesHandler)
	var apiHandler http.Handler = tenant.Middleware(opts.Multitenancy, api)
	apiHandler = httpguard.Concurrency(lim.MaxConcurrentQueries, lim.MaxQueuedQueries, heavyQueries, apiHandler)
	connectBody := httpguard.ConnectBody(lim.MaxBodyBytes, lim.MaxDecompressedBytes, apiHandler)
	mux := http.NewServeMux()
	mux.Handle("/ingest", apiHandler)
	mux.Handle("/push.v1.PusherService/", connectBody)
	mux.Handle("/querier.v1.QuerierService/", connectBody)
	mux.Handle(vectorsPath, connectBody)
	mux.Handle(rulesPath, connectBody)
	mux.Handle("GET /metrics", m.Handler())
	mux.HandleFunc("POST /flush", flushHandler(db))
	if err := telemetry.RegisterMemoryGauges(m.Registry, db); err != nil {
		rec.close()
		_ = db.Close()
		return nil, err
	}
	mux.HandleFunc("GET /ready", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = w.Write([]byte("ready\n"))
	})
	access := httpguard.Access{ListenAddr: opts.ListenAddr, AllowedHosts: opts.AllowedHosts, AuthToken: opts.AuthToken, Open: []string{"/ready"}}
	tp := opts.TracerProvider
	if tp == nil {
		tp = otel.GetTracerProvider()
	}
	st := &Store{db: db, metrics: m, recording: rec, handler: telemetry.Traced(tp, access.Guard(mux))}
	if lim.Retention > 0 || lim.RetentionBytes > 0 {
		st.retention = storage.StartRetention(db, storage.RetentionOptions{MaxAge: lim.Retention, MaxBytes: lim.RetentionBytes, Logger: logger})
	}
	return st, nil
}

// Handler serves every route of the store on one mux.
func (s *Store) Handler() http.Handler { return s.handler }

// heavyQueries are the querier methods bounded by -max-concurrent-queries.
var heavyQueries = []string{"/SelectMergeStacktraces", "/SelectMergeProfile", "/SelectSeries", "/SelectHeatmap", "/Diff", "/SelectMergeSpanProfile"}

// Close stops retention and closes the database. Requests still running may fail.
func (s *Store) Close() error {
	if s.retention != nil {
		s.retention.Stop()
	}
	s.recording.close()
	return s.db.Close()
}

// DiskSpaceUsage returns the bytes the database uses on disk.
func (s *Store) DiskSpaceUsage() uint64 { return s.db.DiskSpaceUsage() }
