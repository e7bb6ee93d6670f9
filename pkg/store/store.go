// Package store is Emberscope's embedded profile store. It speaks Grafana
// Pyroscope's API on one HTTP handler: POST /ingest and
// push.v1.PusherService/Push to receive profiles, querier.v1.QuerierService
// to query them, GET /ready and GET /metrics. Profiles live in a Pebble
// database (package storage); ingest and query are in packages ingest and
// querier.
package store

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/grafana/pyroscope/api/gen/proto/go/push/v1/pushv1connect"
	"github.com/grafana/pyroscope/api/gen/proto/go/querier/v1/querierv1connect"

	"github.com/emberscope/emberscope/pkg/store/ingest"
	"github.com/emberscope/emberscope/pkg/store/metrics"
	"github.com/emberscope/emberscope/pkg/store/querier"
	"github.com/emberscope/emberscope/pkg/store/storage"
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
	// StaleAfter forgets the cumulative memory state of series silent for
	// this long; 0 means one hour.
	StaleAfter time.Duration
	// MaxBodyBytes bounds an ingest request body; 0 means 64 MiB.
	MaxBodyBytes int64
	// Vectors configure the novelty vector kept per profile and sampling
	// at ingest (off by default).
	Vectors vectors.Options
}

// Store is an open profile store.
type Store struct {
	db      *storage.DB
	metrics *metrics.Metrics
	handler http.Handler
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
	hook, err := vectors.New(opts.Vectors)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	db, err := storage.Open(storage.Options{Dir: opts.Dir, Logger: logger, StaleAfter: opts.StaleAfter, Vectors: hook})
	if err != nil {
		return nil, err
	}
	m := metrics.New()
	in := ingest.New(ingest.Options{DB: db, Metrics: m, Logger: logger, MaxAge: opts.MaxAge, MaxBodyBytes: opts.MaxBodyBytes})
	mux := http.NewServeMux()
	mux.Handle("/ingest", in)
	mux.Handle(pushv1connect.NewPusherServiceHandler(ingest.NewPusher(in)))
	mux.Handle(querierv1connect.NewQuerierServiceHandler(querier.New(db)))
	mux.Handle(vectors.NewService(db, hook.Options().Params.By).Handler())
	mux.Handle("GET /metrics", m.Handler())
	mux.HandleFunc("GET /ready", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = w.Write([]byte("ready\n"))
	})
	return &Store{db: db, metrics: m, handler: mux}, nil
}

// Handler serves every route of the store on one mux.
func (s *Store) Handler() http.Handler { return s.handler }

// Close closes the database. Requests still running may fail.
func (s *Store) Close() error { return s.db.Close() }

// DiskSpaceUsage returns the bytes the database uses on disk.
func (s *Store) DiskSpaceUsage() uint64 { return s.db.DiskSpaceUsage() }
