// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package attack_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"connectrpc.com/connect"
	"github.com/google/pprof/profile"
	pushv1 "github.com/grafana/pyroscope/api/gen/proto/go/push/v1"
	"github.com/grafana/pyroscope/api/gen/proto/go/push/v1/pushv1connect"
	querierv1 "github.com/grafana/pyroscope/api/gen/proto/go/querier/v1"
	"github.com/grafana/pyroscope/api/gen/proto/go/querier/v1/querierv1connect"
	typesv1 "github.com/grafana/pyroscope/api/gen/proto/go/types/v1"
	"github.com/stretchr/testify/require"
)

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

// binary builds cmd/emberscope once per test run, without -race, static and
// with -trimpath as scripts/test.sh's backend step and the image build theirs:
// the packages are then in Go's build cache and only the link runs.
func binary(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		out, err := exec.Command("go", "env", "GOMOD").Output()
		if err != nil {
			buildErr = err
			return
		}
		root := filepath.Dir(strings.TrimSpace(string(out)))
		dir, err := os.MkdirTemp("", "emberscope-attack-")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "emberscope")
		cmd := exec.Command("go", "build", "-trimpath", "-o", binPath, "./cmd/emberscope")
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if msg, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, msg)
		}
	})
	require.NoError(t, buildErr)
	return binPath
}

// proc is a running store process.
type proc struct {
	t       testing.TB
	cmd     *exec.Cmd
	addr    string
	url     string
	dir     string
	args    []string
	log     *bytes.Buffer
	logMu   *sync.Mutex
	exited  chan struct{}
	pusher  pushv1connect.PusherServiceClient
	querier querierv1connect.QuerierServiceClient
	hc      *http.Client
}

var addrRe = regexp.MustCompile(`msg="store listening" addr=(\S+)`)

// start runs the store on a free loopback port with dir and extra flags.
func start(t testing.TB, dir string, args ...string) *proc {
	t.Helper()
	p := &proc{t: t, dir: dir, args: args, log: &bytes.Buffer{}, logMu: &sync.Mutex{}}
	p.run()
	t.Cleanup(p.stop)
	return p
}

func (p *proc) run() {
	t := p.t
	t.Helper()
	args := append([]string{"store", "-listen", "127.0.0.1:0", "-data", p.dir}, p.args...)
	cmd := exec.Command(binary(t), args...)
	stderr, err := cmd.StderrPipe()
	require.NoError(t, err)
	cmd.Stdout = io.Discard
	require.NoError(t, cmd.Start())
	p.cmd, p.exited = cmd, make(chan struct{})
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			line := sc.Text()
			p.logMu.Lock()
			p.log.WriteString(line + "\n")
			p.logMu.Unlock()
			if m := addrRe.FindStringSubmatch(line); m != nil {
				select {
				case found <- m[1]:
				default:
				}
			}
		}
	}()
	go func() { _ = cmd.Wait(); close(p.exited) }()
	select {
	case p.addr = <-found:
	case <-p.exited:
		t.Fatalf("store exited before listening:\n%s", p.logs())
	}
	p.url = "http://" + p.addr
	p.hc = &http.Client{}
	p.pusher = pushv1connect.NewPusherServiceClient(p.hc, p.url, connect.WithInterceptors(headerInterceptor))
	p.querier = querierv1connect.NewQuerierServiceClient(p.hc, p.url, connect.WithInterceptors(headerInterceptor))
	for {
		resp, err := p.hc.Get(p.url + "/ready")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return
			}
		}
		select {
		case <-p.exited:
			t.Fatalf("store exited:\n%s", p.logs())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

func (p *proc) logs() string {
	p.logMu.Lock()
	defer p.logMu.Unlock()
	return p.log.String()
}

// kill sends SIGKILL and waits for the process to go.
func (p *proc) kill() {
	_ = p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.exited
	p.hc.CloseIdleConnections()
}

func (p *proc) stop() {
	select {
	case <-p.exited:
		return
	default:
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.exited:
	case <-time.After(15 * time.Second):
		p.kill()
	}
}

// restart kills the process and starts it again on the same directory.
func (p *proc) restart() {
	p.kill()
	p.run()
}

// peakRSS is the process's VmHWM in bytes.
func (p *proc) peakRSS() int64 {
	p.t.Helper()
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", p.cmd.Process.Pid))
	require.NoError(p.t, err)
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			require.NoError(p.t, err)
			return kb << 10
		}
	}
	p.t.Fatal("no VmHWM in /proc status")
	return 0
}

// post sends a raw HTTP request and returns status and body.
func (p *proc) post(path string, header http.Header, body []byte) (int, string) {
	p.t.Helper()
	req, err := http.NewRequest(http.MethodPost, p.url+path, bytes.NewReader(body))
	require.NoError(p.t, err)
	for k, vs := range header {
		req.Header[k] = vs
	}
	resp, err := p.hc.Do(req)
	require.NoError(p.t, err)
	defer resp.Body.Close()
	text, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(text)
}

const cpuType = "process_cpu:cpu:nanoseconds:cpu:nanoseconds"

// cpuProfile is a pprof with one sample per stack (frames root first) at t.
func cpuProfile(t time.Time, stacks [][]string, values []int64) *profile.Profile {
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "cpu", Unit: "nanoseconds"}},
		PeriodType: &profile.ValueType{Type: "cpu", Unit: "nanoseconds"},
		Period:     10_000_000,
		TimeNanos:  t.UnixNano(),
	}
	funcs := map[string]*profile.Location{}
	for i, st := range stacks {
		s := &profile.Sample{Value: []int64{values[i]}}
		for j := len(st) - 1; j >= 0; j-- {
			loc := funcs[st[j]]
			if loc == nil {
				fn := &profile.Function{ID: uint64(len(p.Function) + 1), Name: st[j]}
				loc = &profile.Location{ID: uint64(len(p.Location) + 1), Line: []profile.Line{{Function: fn}}}
				p.Function = append(p.Function, fn)
				p.Location = append(p.Location, loc)
				funcs[st[j]] = loc
			}
			s.Location = append(s.Location, loc)
		}
		p.Sample = append(p.Sample, s)
	}
	return p
}

func encode(t testing.TB, p *profile.Profile) []byte {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, p.Write(&buf))
	return buf.Bytes()
}

// push sends one raw profile under labels (name=value pairs).
func (p *proc) push(ctx context.Context, raw []byte, labels ...string) error {
	var ls []*typesv1.LabelPair
	for i := 0; i+1 < len(labels); i += 2 {
		ls = append(ls, &typesv1.LabelPair{Name: labels[i], Value: labels[i+1]})
	}
	_, err := p.pusher.Push(ctx, connect.NewRequest(&pushv1.PushRequest{Series: []*pushv1.RawProfileSeries{{
		Labels: ls, Samples: []*pushv1.RawSample{{RawProfile: raw}},
	}}}))
	return err
}

// total is the flamegraph total of the selector over every time.
func (p *proc) total(selector string) int64 {
	p.t.Helper()
	resp, err := p.querier.SelectMergeStacktraces(context.Background(), connect.NewRequest(&querierv1.SelectMergeStacktracesRequest{
		ProfileTypeID: cpuType, LabelSelector: selector, Start: 1, End: farFuture,
	}))
	require.NoError(p.t, err)
	return resp.Msg.Flamegraph.GetTotal()
}

const farFuture = int64(4102444800000) // 2100-01-01 in unix ms

// everyQueryAnswers checks that every querier call the plugin makes answers.
func (p *proc) everyQueryAnswers(t testing.TB) {
	t.Helper()
	ctx := context.Background()
	now := time.Now().UnixMilli()
	from := now - 2*3600_000
	q := p.querier
	_, err := q.ProfileTypes(ctx, connect.NewRequest(&querierv1.ProfileTypesRequest{Start: from, End: now}))
	require.NoError(t, err, "ProfileTypes")
	_, err = q.LabelNames(ctx, connect.NewRequest(&typesv1.LabelNamesRequest{Start: from, End: now}))
	require.NoError(t, err, "LabelNames")
	_, err = q.LabelValues(ctx, connect.NewRequest(&typesv1.LabelValuesRequest{Name: "service_name", Start: from, End: now}))
	require.NoError(t, err, "LabelValues")
	_, err = q.Series(ctx, connect.NewRequest(&querierv1.SeriesRequest{Start: from, End: now}))
	require.NoError(t, err, "Series")
	_, err = q.SelectMergeStacktraces(ctx, connect.NewRequest(&querierv1.SelectMergeStacktracesRequest{ProfileTypeID: cpuType, LabelSelector: "{}", Start: from, End: now}))
	require.NoError(t, err, "SelectMergeStacktraces")
	//lint:ignore SA1019 the store serves querier.v1 SelectMergeProfile as Pyroscope v2.2.1 does
	_, err = q.SelectMergeProfile(ctx, connect.NewRequest(&querierv1.SelectMergeProfileRequest{ProfileTypeID: cpuType, LabelSelector: "{}", Start: from, End: now}))
	require.NoError(t, err, "SelectMergeProfile")
	_, err = q.SelectSeries(ctx, connect.NewRequest(&querierv1.SelectSeriesRequest{ProfileTypeID: cpuType, LabelSelector: "{}", Start: from, End: now, Step: 60, GroupBy: []string{"service_name"}}))
	require.NoError(t, err, "SelectSeries")
	_, err = q.SelectHeatmap(ctx, connect.NewRequest(&querierv1.SelectHeatmapRequest{ProfileTypeID: cpuType, LabelSelector: "{}", Start: from, End: now, Step: 60, QueryType: querierv1.HeatmapQueryType_HEATMAP_QUERY_TYPE_INDIVIDUAL}))
	require.NoError(t, err, "SelectHeatmap")
	side := &querierv1.SelectMergeStacktracesRequest{ProfileTypeID: cpuType, LabelSelector: "{}", Start: from, End: now}
	_, err = q.Diff(ctx, connect.NewRequest(&querierv1.DiffRequest{Left: side, Right: side}))
	require.NoError(t, err, "Diff")
	_, err = q.GetProfileStats(ctx, connect.NewRequest(&typesv1.GetProfileStatsRequest{}))
	require.NoError(t, err, "GetProfileStats")
}

// headerInterceptor sets the request headers a test put in the context.
var headerInterceptor = connect.UnaryInterceptorFunc(func(next connect.UnaryFunc) connect.UnaryFunc {
	return func(ctx context.Context, req connect.AnyRequest) (connect.AnyResponse, error) {
		if h, ok := ctx.Value(headerKey{}).(map[string]string); ok {
			for k, v := range h {
				if v != "" && v != "Bearer " {
					req.Header().Set(k, v)
				}
			}
		}
		return next(ctx, req)
	}
})
