// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package store_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/prometheus/client_golang/api"
	promv1 "github.com/prometheus/client_golang/api/prometheus/v1"
	"github.com/prometheus/common/model"
	"github.com/stretchr/testify/require"
)

// realPrometheus is Debian's prometheus, run by the test on loopback with
// the remote write receiver on and a storage folder of its own (never the
// system service).
type realPrometheus struct {
	t       *testing.T
	bin     string
	addr    string
	dataDir string
	config  string
	cmd     *exec.Cmd
	exited  chan struct{}
	API     promv1.API
}

// startPrometheus starts Prometheus and waits until it is ready. The binary
// is $PROMETHEUS_PATH or prometheus on the PATH; scripts/test.sh installs
// Debian's package when it is missing.
func startPrometheus(t *testing.T) *realPrometheus {
	t.Helper()
	bin := os.Getenv("PROMETHEUS_PATH")
	if bin == "" {
		var err error
		bin, err = exec.LookPath("prometheus")
		require.NoError(t, err, "Debian's prometheus is needed: apt-get install prometheus (scripts/test.sh installs it)")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	dir := t.TempDir()
	config := filepath.Join(dir, "prometheus.yml")
	require.NoError(t, os.WriteFile(config, []byte("global:\n  scrape_interval: 1h\n"), 0o600))
	p := &realPrometheus{t: t, bin: bin, addr: addr, dataDir: filepath.Join(dir, "data"), config: config}
	client, err := api.NewClient(api.Config{Address: "http://" + addr})
	require.NoError(t, err)
	p.API = promv1.NewAPI(client)
	p.Start()
	t.Cleanup(p.Stop)
	return p
}

// RemoteWriteURL is the receiver's endpoint.
func (p *realPrometheus) RemoteWriteURL() string { return "http://" + p.addr + "/api/v1/write" }

// Start runs Prometheus (again, on the same address and storage) and
// waits until /-/ready answers 200.
func (p *realPrometheus) Start() {
	p.t.Helper()
	log, err := os.OpenFile(filepath.Join(filepath.Dir(p.config), "prometheus.log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	require.NoError(p.t, err)
	p.cmd = exec.Command(p.bin,
		"--config.file="+p.config,
		"--storage.tsdb.path="+p.dataDir,
		"--web.listen-address="+p.addr,
		"--web.enable-remote-write-receiver",
	)
	p.cmd.Stdout, p.cmd.Stderr = log, log
	require.NoError(p.t, p.cmd.Start())
	p.exited = make(chan struct{})
	go func(cmd *exec.Cmd, exited chan struct{}) {
		_ = cmd.Wait()
		_ = log.Close()
		close(exited)
	}(p.cmd, p.exited)
	eventually(p.t, "prometheus ready on "+p.addr, func() (bool, string) {
		select {
		case <-p.exited:
			out, _ := os.ReadFile(log.Name())
			p.t.Fatalf("prometheus exited: %s", out)
		default:
		}
		resp, err := http.Get("http://" + p.addr + "/-/ready")
		if err != nil {
			return false, err.Error()
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK, resp.Status
	})
}

// Stop ends Prometheus (SIGTERM) and waits for it to exit.
func (p *realPrometheus) Stop() {
	if p.cmd == nil {
		return
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	<-p.exited
	p.cmd = nil
}

// Matrix returns every sample of the series selected by sel in the last hour.
func (p *realPrometheus) Matrix(sel string) model.Matrix {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	v, _, _, err := p.API.Query(ctx, sel+"[1h]", time.Now())
	require.NoError(p.t, err)
	m, ok := v.(model.Matrix)
	require.True(p.t, ok, "a range query answers a matrix, got %s", v.Type())
	return m
}

// eventually polls cond until it holds; the test's own deadline (go test
// -timeout) bounds the wait. What cond last said is reported on failure.
func eventually(t *testing.T, what string, cond func() (bool, string)) {
	t.Helper()
	deadline, ok := t.Deadline()
	if !ok {
		deadline = time.Now().Add(5 * time.Minute)
	}
	deadline = deadline.Add(-10 * time.Second)
	var last string
	for time.Now().Before(deadline) {
		var done bool
		if done, last = cond(); done {
			return
		}
		time.Sleep(50 * time.Millisecond) // polling, not synchronisation: cond decides
	}
	t.Fatalf("waiting for %s: gave up; last: %s", what, last)
}

// seriesKey names a series of a matrix by one label's value.
func valuesBy(m model.Matrix, label string) map[string][]float64 {
	out := map[string][]float64{}
	for _, s := range m {
		k := string(s.Metric[model.LabelName(label)])
		for _, v := range s.Values {
			out[k] = append(out[k], float64(v.Value))
		}
	}
	return out
}

func describe(m map[string][]float64) string {
	var b strings.Builder
	for k, v := range m {
		fmt.Fprintf(&b, "%s=%v ", k, v)
	}
	return b.String()
}
