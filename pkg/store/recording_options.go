// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package store

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"time"

	settingsv1 "github.com/grafana/pyroscope/api/gen/proto/go/settings/v1"

	"github.com/emberscope/emberscope/pkg/store/export"
	"github.com/emberscope/emberscope/pkg/store/metrics"
	"github.com/emberscope/emberscope/pkg/store/recording"
	"github.com/emberscope/emberscope/pkg/store/rules"
	"github.com/emberscope/emberscope/pkg/store/storage"
	"github.com/emberscope/emberscope/pkg/store/tenant"
)

// RecordingOptions configure recording rules (packages rules, recording
// and export): the rules themselves are kept per tenant through
// settings.v1.RecordingRulesService.
type RecordingOptions struct {
	// Provisioned rules apply to every tenant and cannot be changed through
	// the API (see rules.LoadFile).
	Provisioned []*settingsv1.RecordingRule
	// Interval is the width of the aligned intervals profiles are summed
	// in, by arrival (15s when zero).
	Interval time.Duration
	// RemoteWrite, when its URL is set, sends the recorded series there;
	// otherwise they are counters on GET /metrics.
	RemoteWrite export.RemoteWriteOptions
	// Sink, when set, receives the recorded points instead (tests, and
	// consumers other than Prometheus).
	Sink recording.Sink
}

// recordingRun is the running evaluation of recording rules.
type recordingRun struct {
	recorder *recording.Recorder
	writer   *export.RemoteWriter
	stop     chan struct{}
	stopped  chan struct{}
}

// startRecording builds the rules' recorder and its sink and starts
// flushing intervals as they close.
func startRecording(o RecordingOptions, db *storage.DB, repo *rules.Repo, m *metrics.Metrics, logger *slog.Logger) (*recordingRun, error) {
	instance, err := instanceID(db)
	if err != nil {
		return nil, err
	}
	run := &recordingRun{stop: make(chan struct{}), stopped: make(chan struct{})}
	sink := o.Sink
	switch {
	case sink != nil:
	case o.RemoteWrite.URL != "":
		rw := o.RemoteWrite
		rw.Registerer, rw.Logger = m.Registry, logger
		if run.writer, err = export.NewRemoteWriter(rw); err != nil {
			return nil, err
		}
		sink = run.writer
	default:
		counters := export.NewCounters(tenant.Anonymous)
		if err := m.Registry.Register(counters); err != nil {
			return nil, err
		}
		sink = counters
	}
	run.recorder = recording.New(recording.Options{Rules: repo, Sink: sink, Interval: o.Interval, Instance: instance})
	go func() {
		defer close(run.stopped)
		run.recorder.Run(run.stop)
	}()
	return run, nil
}

// close hands the open intervals to the sink and gives remote write a few
// seconds to deliver what is queued.
func (r *recordingRun) close() {
	close(r.stop)
	<-r.stopped
	if r.writer != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		r.writer.Close(ctx)
	}
}

// instanceID names this store on its recorded series; it is kept with the
// data so that it survives restarts.
func instanceID(db *storage.DB) (string, error) {
	const name = "recording/instance"
	v, ok, err := db.Setting(name)
	if err != nil {
		return "", fmt.Errorf("store: reading the instance id: %w", err)
	}
	if ok {
		return string(v), nil
	}
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	id := hex.EncodeToString(b)
	if err := db.PutSetting(name, []byte(id)); err != nil {
		return "", fmt.Errorf("store: storing the instance id: %w", err)
	}
	return id, nil
}
