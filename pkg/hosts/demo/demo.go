// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package demo

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/emberscope/emberscope/pkg/hosts/playground"
	"github.com/emberscope/emberscope/pkg/hosts/playground/page"
	"github.com/emberscope/emberscope/pkg/store"
)

// Defaults of Options.
const (
	DefaultUploadRate = 10 * time.Second
	DefaultPause      = 50 * time.Millisecond
)

// Options configure the demo. The zero value of a field means its default.
type Options struct {
	// Listen is the playground's address (default 127.0.0.1:3000).
	Listen string
	// StoreListen is the embedded store's address (default 127.0.0.1:4040).
	StoreListen string
	// ServiceListen is the demo service's address (default 127.0.0.1:0, a
	// free port).
	ServiceListen string
	// DataDir holds the store's data; empty means a new temporary directory,
	// removed when the demo stops.
	DataDir string
	// PushURL sends profiles to this Pyroscope-compatible server instead of
	// an embedded store (which is then not started); the playground reads
	// from it too.
	PushURL string
	// NoPlayground skips the playground.
	NoPlayground bool
	// Prometheus runs the prometheus on the PATH (Debian's package), when
	// there is one, and has the embedded store remote-write the demo's
	// recording rules to it; without one the rules' series are counters on
	// the store's /metrics.
	Prometheus bool
	// StaticDir is a directory of a built playground page to serve instead
	// of the one in the binary (default: the binary's).
	StaticDir string
	// UploadRate is how often the profiler pushes (default 10s).
	UploadRate time.Duration
	// Workers and Pause shape the load: virtual users and their think time
	// (defaults 2 and 50ms).
	Workers int
	Pause   time.Duration
	// Region is the profiles' `region` tag (default eu-west).
	Region string
	// SourceRoots are folders the source view reads besides the demo's
	// own code (SourceRoot).
	SourceRoots []string
	// Out receives the progress lines, the last one being the address to
	// open (default os.Stdout).
	Out io.Writer
	// Logger receives errors and, when its level allows Info, one line per
	// playground request (default: warnings and errors to os.Stderr).
	Logger *slog.Logger
	// ServiceCommand runs the service process (see ServiceMain); the
	// service flags are appended. Default: this executable's
	// `demo -service`.
	ServiceCommand []string
	// ServiceStderr receives the service process's logs (default os.Stderr).
	ServiceStderr io.Writer
}

func (o *Options) setDefaults() {
	def := func(s *string, v string) {
		if *s == "" {
			*s = v
		}
	}
	def(&o.Listen, "127.0.0.1:3000")
	def(&o.StoreListen, "127.0.0.1:4040")
	def(&o.ServiceListen, "127.0.0.1:0")
	def(&o.Region, "eu-west")
	if o.UploadRate <= 0 {
		o.UploadRate = DefaultUploadRate
	}
	if o.Workers <= 0 {
		o.Workers = 2
	}
	if o.Pause <= 0 {
		o.Pause = DefaultPause
	}
	if o.Out == nil {
		o.Out = os.Stdout
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	}
	if o.ServiceStderr == nil {
		o.ServiceStderr = os.Stderr
	}
}

// Demo is a running demo. The service runs in a process of its own, so its
// profiles hold its work only; the store, the playground and the load
// generator run in this one.
type Demo struct {
	// StoreURL is the profile server (the embedded store, or PushURL).
	StoreURL string
	// ServiceURL is the demo service.
	ServiceURL string
	// PlaygroundURL is the playground ("" with NoPlayground).
	PlaygroundURL string
	// TestRunID is the k6.test_run_id the load generator sends.
	TestRunID string

	opts    Options
	started time.Time
	store   *store.Store
	tempDir string
	// prometheus is the demo's Prometheus (nil when not run); promNote
	// says why it is not.
	prometheus *prometheusProcess
	promNote   string
	servers    []*http.Server
	service    *serviceProcess
	stopLoad   context.CancelFunc
	loadDone   chan struct{}
	load       *LoadGenerator
}

// Start starts the store, the service process (profiled by the Pyroscope
// SDK), the load generator and the playground, and returns once all serve;
// the first profiles land a few seconds later (see WaitReady). On error,
// whatever was started is stopped.
func Start(opts Options) (d *Demo, err error) {
	opts.setDefaults()
	d = &Demo{opts: opts, started: time.Now()}
	defer func() {
		if err != nil {
			err = errors.Join(err, d.Close())
			d = nil
		}
	}()

	if opts.PushURL != "" {
		d.StoreURL = strings.TrimRight(opts.PushURL, "/")
	} else if err := d.startStore(); err != nil {
		return d, err
	}

	command := opts.ServiceCommand
	if len(command) == 0 {
		if command, err = defaultServiceCommand(); err != nil {
			return d, err
		}
	}
	d.service, d.ServiceURL, err = startServiceProcess(command, ServiceOptions{
		Listen: opts.ServiceListen, PushURL: d.StoreURL, UploadRate: opts.UploadRate, Region: opts.Region,
	}, opts.ServiceStderr)
	if err != nil {
		return d, err
	}

	d.load, err = NewLoadGenerator(LoadOptions{BaseURL: d.ServiceURL, Nodes: cityNodes, Workers: opts.Workers, Pause: opts.Pause})
	if err != nil {
		return d, err
	}
	d.TestRunID = d.load.TestRunID()
	ctx, cancel := context.WithCancel(context.Background())
	d.stopLoad, d.loadDone = cancel, make(chan struct{})
	go func() {
		defer close(d.loadDone)
		d.load.Run(ctx)
	}()

	if !opts.NoPlayground {
		h, err := playground.New(playground.Options{BackendURL: d.StoreURL, StaticDir: opts.StaticDir, Logger: opts.Logger, SourceRoots: demoSourceRoots(opts.SourceRoots)})
		if err != nil {
			return d, err
		}
		if d.PlaygroundURL, err = d.serve("playground", opts.Listen, h); err != nil {
			return d, err
		}
	}
	d.printStarted()
	return d, nil
}

// startStore opens the embedded store and serves it.
func (d *Demo) startStore() error {
	dir := d.opts.DataDir
	if dir == "" {
		tmp, err := os.MkdirTemp("", "emberscope-demo-")
		if err != nil {
			return fmt.Errorf("creating a data directory: %w", err)
		}
		d.tempDir, dir = tmp, tmp
	}
	rec := store.RecordingOptions{Provisioned: recordingRules()}
	if d.opts.Prometheus {
		p, err := startPrometheus()
		switch {
		case err == nil:
			d.prometheus = p
			rec.RemoteWrite.URL = p.RemoteWriteURL()
		case errors.Is(err, errNoPrometheus):
			d.promNote = "not installed (apt-get install prometheus to see the recording rules there)"
		default:
			d.promNote = "did not start: " + err.Error()
		}
	}
	st, err := store.Open(store.Options{Dir: dir, Logger: d.opts.Logger, Recording: rec})
	if err != nil {
		return fmt.Errorf("opening the store in %s: %w", dir, err)
	}
	d.store = st
	d.StoreURL, err = d.serve("store", d.opts.StoreListen, st.Handler())
	return err
}

// serve listens on addr and serves h in the background; it returns the
// server's base URL.
func (d *Demo) serve(name, addr string, h http.Handler) (string, error) {
	lis, err := net.Listen("tcp", addr)
	if err != nil {
		return "", fmt.Errorf("%s: listening on %s: %w", name, addr, err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, ErrorLog: slog.NewLogLogger(d.opts.Logger.Handler(), slog.LevelWarn)}
	d.servers = append(d.servers, srv)
	go func() {
		if err := srv.Serve(lis); err != nil && !errors.Is(err, http.ErrServerClosed) {
			d.opts.Logger.Error(name+" stopped serving", "err", err)
		}
	}()
	return "http://" + lis.Addr().String(), nil
}

func (d *Demo) printStarted() {
	out := d.opts.Out
	if d.store != nil {
		dir := d.opts.DataDir
		if dir == "" {
			dir = d.tempDir + " (temporary)"
		}
		fmt.Fprintf(out, "store:      %s  (data in %s)\n", d.StoreURL, dir)
	} else {
		fmt.Fprintf(out, "profiles:   pushed to %s\n", d.StoreURL)
	}
	d.printRecording()
	fmt.Fprintf(out, "service:    %s  (/car /bike /scooter, profiled as %s{region=%s}, upload every %s)\n",
		d.ServiceURL, AppName, d.opts.Region, d.opts.UploadRate)
	fmt.Fprintf(out, "traces:     every request is a span (OpenTelemetry SDK + otel-profiling-go: span_id, span_name, trace_id on its samples); recent spans at %s/debug/spans\n",
		d.ServiceURL)
	fmt.Fprintf(out, "load:       %d virtual users, k6.test_run_id=%s, scenarios %s\n",
		d.opts.Workers, d.TestRunID, strings.Join(Scenarios, ", "))
	if d.PlaygroundURL != "" {
		fmt.Fprintf(out, "playground: %s\n", d.PlaygroundURL)
		if d.opts.StaticDir == "" && !page.Built(page.FS()) {
			fmt.Fprintf(out, "            (this binary was built before the page: run %s, then rebuild it; the API works without it)\n", playground.BuildCommand)
		}
	}
	fmt.Fprintln(out, "waiting for the first profile to land (a few seconds)...")
}

// WaitReady blocks until the service's first CPU profile is queryable from
// the profile server, or ctx ends.
func (d *Demo) WaitReady(ctx context.Context) error {
	return waitForProfiles(ctx, d.StoreURL, d.started)
}

// OpenURL is the address to open once ready: the app's home page (its
// services, CPU) in the playground (the store's URL with NoPlayground).
func (d *Demo) OpenURL() string {
	if d.PlaygroundURL == "" {
		return d.StoreURL
	}
	return appLink(d.PlaygroundURL)
}

// QueryURL is the playground's query page with a query of the service's
// CPU by vehicle ("" with NoPlayground).
func (d *Demo) QueryURL() string {
	if d.PlaygroundURL == "" {
		return ""
	}
	return playgroundLink(d.PlaygroundURL)
}

// LoadStats reports the load generator's requests, failures and last error.
func (d *Demo) LoadStats() (requests, failures int64, lastErr string) {
	return d.load.Stats()
}

// Close stops the load, stops the service process (which flushes its
// profiler: the last profiles reach the store), shuts the servers down,
// closes the store and removes a temporary data directory. It is safe on a
// partly started demo.
func (d *Demo) Close() error {
	var errs []error
	if d.stopLoad != nil {
		d.stopLoad()
		<-d.loadDone
	}
	if d.service != nil {
		errs = append(errs, d.service.stop())
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for i := len(d.servers) - 1; i >= 0; i-- {
		errs = append(errs, d.servers[i].Shutdown(ctx))
	}
	if d.store != nil {
		errs = append(errs, d.store.Close())
	}
	if d.prometheus != nil { // after the store, which sends its last interval
		errs = append(errs, d.prometheus.stop())
	}
	if d.tempDir != "" {
		errs = append(errs, os.RemoveAll(d.tempDir))
	}
	return errors.Join(errs...)
}

// Run starts the demo, prints the address to open once the first profile
// has landed, and stops everything cleanly when ctx ends (Ctrl-C) or after
// duration (0 means no limit).
func Run(ctx context.Context, opts Options, duration time.Duration) error {
	if duration > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, duration)
		defer cancel()
	}
	d, err := Start(opts)
	if err != nil {
		return err
	}
	out := d.opts.Out
	ready := false
	for !ready && ctx.Err() == nil {
		waitCtx, cancel := context.WithTimeout(ctx, 60*time.Second)
		err := d.WaitReady(waitCtx)
		cancel()
		if err == nil {
			if q := d.QueryURL(); q != "" {
				fmt.Fprintf(out, "the query page: %s\n", q)
			}
			fmt.Fprintf(out, "Emberscope demo is ready: open %s\n", d.OpenURL())
			ready = true
			continue
		}
		if ctx.Err() == nil {
			requests, failures, lastErr := d.LoadStats()
			d.opts.Logger.Warn("still no profile after a minute", "err", err,
				"requests", requests, "failedRequests", failures, "lastRequestError", lastErr)
		}
	}
	<-ctx.Done()
	if !ready {
		fmt.Fprintln(out, "the demo stopped before the first profile landed")
	}
	d.opts.Logger.Info("stopping the demo")
	if err := d.Close(); err != nil {
		return fmt.Errorf("stopping the demo: %w", err)
	}
	return nil
}

// demoSourceRoots are the given roots and the demo's own code.
func demoSourceRoots(roots []string) []string {
	if own := SourceRoot(); own != "" {
		return append(append([]string{}, roots...), own)
	}
	return roots
}
