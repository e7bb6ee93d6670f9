// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package demo

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"syscall"
	"time"

	settingsv1 "github.com/grafana/pyroscope/api/gen/proto/go/settings/v1"
)

// Recording rule metrics of the demo, written to Prometheus when it is
// installed, counters on the store's /metrics otherwise.
const (
	VehicleCPUMetric      = "profiles_recorded_ride_share_cpu"
	ShortestPathCPUMetric = "profiles_recorded_ride_share_shortest_path_cpu"
)

// ShortestPathFunction is the profile frame name of cityMap.shortestPath,
// the route search, taken from the binary so that it follows renames.
var ShortestPathFunction = runtime.FuncForPC(reflect.ValueOf((*cityMap).shortestPath).Pointer()).Name()

// recordingRules are the demo's two provisioned rules: the service's CPU
// by vehicle, and the CPU spent in the route search, by vehicle.
func recordingRules() []*settingsv1.RecordingRule {
	selector := `{__profile_type__="` + CPUProfileType + `", service_name="` + AppName + `"}`
	return []*settingsv1.RecordingRule{
		{MetricName: VehicleCPUMetric, Matchers: []string{selector}, GroupBy: []string{labelVehicle}},
		{
			MetricName: ShortestPathCPUMetric, Matchers: []string{selector}, GroupBy: []string{labelVehicle},
			StacktraceFilter: &settingsv1.StacktraceFilter{FunctionName: &settingsv1.StacktraceFilterFunctionName{FunctionName: ShortestPathFunction}},
		},
	}
}

// errNoPrometheus: no prometheus binary on the PATH.
var errNoPrometheus = errors.New("prometheus is not installed")

// prometheusProcess is a Prometheus the demo runs on loopback with the
// remote write receiver on and a temporary storage folder.
type prometheusProcess struct {
	URL    string
	dir    string
	cmd    *exec.Cmd
	exited chan struct{}
}

// startPrometheus starts the prometheus on the PATH and waits until it is
// ready; errNoPrometheus when there is none.
func startPrometheus() (*prometheusProcess, error) {
	bin, err := exec.LookPath("prometheus")
	if err != nil {
		return nil, errNoPrometheus
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	addr := ln.Addr().String()
	_ = ln.Close()
	dir, err := os.MkdirTemp("", "emberscope-demo-prometheus-")
	if err != nil {
		return nil, err
	}
	config := filepath.Join(dir, "prometheus.yml")
	if err := os.WriteFile(config, []byte("global:\n  scrape_interval: 15s\n"), 0o600); err != nil {
		return nil, errors.Join(err, os.RemoveAll(dir))
	}
	logTo, err := os.Create(filepath.Join(dir, "prometheus.log"))
	if err != nil {
		return nil, errors.Join(err, os.RemoveAll(dir))
	}
	p := &prometheusProcess{URL: "http://" + addr, dir: dir, exited: make(chan struct{})}
	p.cmd = exec.Command(bin, "--config.file="+config, "--storage.tsdb.path="+filepath.Join(dir, "data"),
		"--web.listen-address="+addr, "--web.enable-remote-write-receiver")
	p.cmd.Stdout, p.cmd.Stderr = logTo, logTo
	if err := p.cmd.Start(); err != nil {
		return nil, errors.Join(fmt.Errorf("starting %s: %w", bin, err), logTo.Close(), os.RemoveAll(dir))
	}
	go func() {
		_ = p.cmd.Wait()
		_ = logTo.Close()
		close(p.exited)
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := p.waitReady(ctx); err != nil {
		return nil, errors.Join(err, p.stop())
	}
	return p, nil
}

// RemoteWriteURL is where the store sends the recorded series.
func (p *prometheusProcess) RemoteWriteURL() string { return p.URL + "/api/v1/write" }

func (p *prometheusProcess) waitReady(ctx context.Context) error {
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		resp, err := http.Get(p.URL + "/-/ready")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case <-p.exited:
			log, _ := os.ReadFile(filepath.Join(p.dir, "prometheus.log"))
			return fmt.Errorf("prometheus exited before it was ready: %s", lastLines(string(log), 5))
		case <-ctx.Done():
			return fmt.Errorf("prometheus on %s not ready: %w", p.URL, ctx.Err())
		case <-tick.C:
		}
	}
}

// stop ends Prometheus (SIGTERM, then SIGKILL after 10s) and removes its data.
func (p *prometheusProcess) stop() error {
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.exited:
	case <-time.After(10 * time.Second):
		_ = p.cmd.Process.Kill()
		<-p.exited
	}
	return os.RemoveAll(p.dir)
}

// lastLines is the end of a log, for an error message.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// printRecording says where the recording rules' series are.
func (d *Demo) printRecording() {
	if d.store == nil {
		return
	}
	out := d.opts.Out
	rules := fmt.Sprintf("%s by vehicle, %s (CPU in %s)", VehicleCPUMetric, ShortestPathCPUMetric, ShortestPathFunction)
	switch {
	case d.prometheus != nil:
		fmt.Fprintf(out, "prometheus: %s  (recording rules every 15s: %s)\n", d.prometheus.URL, rules)
	case d.opts.Prometheus:
		fmt.Fprintf(out, "prometheus: %s; the recording rules (%s) are counters on %s/metrics\n", d.promNote, rules, d.StoreURL)
	}
}
