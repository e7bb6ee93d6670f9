// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package store_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"

	"connectrpc.com/connect"
	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/cockroachdb/pebble/v2/vfs/errorfs"
	pushv1 "github.com/grafana/pyroscope/api/gen/proto/go/push/v1"
	"github.com/grafana/pyroscope/api/gen/proto/go/push/v1/pushv1connect"
	"github.com/grafana/pyroscope/api/gen/proto/go/querier/v1/querierv1connect"
	typesv1 "github.com/grafana/pyroscope/api/gen/proto/go/types/v1"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/pkg/store"
)

// fullDisk is a file system whose writes fail with ENOSPC while it is full.
type fullDisk struct {
	full     atomic.Bool
	injected atomic.Int64
}

func (d *fullDisk) fs() vfs.FS {
	return errorfs.Wrap(vfs.Default, errorfs.InjectorFunc(func(op errorfs.Op) error {
		if d.full.Load() && op.Kind.ReadOrWrite() == errorfs.OpIsWrite {
			d.injected.Add(1)
			return fmt.Errorf("write %s: %w", op.Path, syscall.ENOSPC)
		}
		return nil
	}))
}

// TestDiskFull fills the disk under a running store: writes are answered
// 507 (resource_exhausted on push), reads go on with the data stored
// before, and after a restart with space the data is intact and writes work.
func TestDiskFull(t *testing.T) {
	dir := t.TempDir()
	disk := &fullDisk{}
	st, err := store.Open(store.Options{Dir: dir, FS: disk.fs(), NoIngestWindow: true, NoRetention: true})
	require.NoError(t, err)
	srv := httptest.NewServer(st.Handler())
	s := &server{t: t, srv: srv}
	folded := func(name string) (int, string) {
		return s.ingest(url.Values{"name": {name}, "format": {"folded"}, "from": {"1700000000"}}, "", []byte("main;work 3\n"))
	}
	status, msg := folded("before")
	require.Equal(t, http.StatusOK, status, msg)

	disk.full.Store(true)
	status, msg = folded("during")
	require.Equal(t, http.StatusInsufficientStorage, status, msg)
	require.Contains(t, msg, "disk full")
	pusher := pushv1connect.NewPusherServiceClient(srv.Client(), srv.URL)
	_, err = pusher.Push(context.Background(), connect.NewRequest(&pushv1.PushRequest{Series: []*pushv1.RawProfileSeries{{
		Labels:  []*typesv1.LabelPair{{Name: "service_name", Value: "during"}},
		Samples: []*pushv1.RawSample{{RawProfile: cpuData(t)}},
	}}}))
	require.Equal(t, connect.CodeResourceExhausted, connect.CodeOf(err), "%v", err)
	require.Contains(t, err.Error(), "disk full")
	// Reads go on.
	s.querier = newQuerier(srv)
	for i := 0; i < 3; i++ {
		require.Equal(t, int64(3*1e7), s.flame(cpuType, `{service_name="before"}`, 0).total)
	}
	srv.Close()
	_ = st.Close() // may report the failed writes

	disk.full.Store(false)
	st, err = store.Open(store.Options{Dir: dir, FS: disk.fs(), NoIngestWindow: true, NoRetention: true})
	require.NoError(t, err)
	defer st.Close()
	srv = httptest.NewServer(st.Handler())
	defer srv.Close()
	s = &server{t: t, srv: srv, querier: newQuerier(srv)}
	require.Equal(t, int64(3*1e7), s.flame(cpuType, `{service_name="before"}`, 0).total)
	status, msg = folded("after")
	require.Equal(t, http.StatusOK, status, msg)
	require.Equal(t, int64(3*1e7), s.flame(cpuType, `{service_name="after"}`, 0).total)
}

// TestOpenWaitsWhileDiskFull: opening on a full disk waits quietly (one
// log line, not one per attempt) and opens once there is space.
func TestOpenWaitsWhileDiskFull(t *testing.T) {
	disk := &fullDisk{}
	disk.full.Store(true)
	var logs lockedBuffer
	logger := slog.New(slog.NewTextHandler(&logs, nil))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	type result struct {
		st  *store.Store
		err error
	}
	done := make(chan result, 1)
	go func() {
		st, err := store.Open(store.Options{Dir: t.TempDir(), FS: disk.fs(), Logger: logger, WaitOnDiskFull: ctx, NoRetention: true})
		done <- result{st, err}
	}()
	for disk.injected.Load() < 5 {
		select {
		case r := <-done:
			t.Fatalf("Open returned while the disk was full: %v", r.err)
		default:
			runtime.Gosched()
		}
	}
	disk.full.Store(false)
	r := <-done
	require.NoError(t, r.err)
	defer r.st.Close()
	require.Equal(t, 1, strings.Count(logs.String(), "the disk is full"), logs.String())
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func newQuerier(srv *httptest.Server) querierv1connect.QuerierServiceClient {
	return querierv1connect.NewQuerierServiceClient(srv.Client(), srv.URL)
}
