// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package deploytest

import (
	"bytes"
	"context"
	"debug/elf"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The image: a static binary on an empty base, non-root, /data a volume,
// a health check through the binary itself.
func TestDockerfileImage(t *testing.T) {
	d := parseDockerfile(t, filepath.Join(repoRoot(t), "Dockerfile"))
	require.NotEmpty(t, d.stages)
	base := strings.Fields(d.stages[len(d.stages)-1])[0]
	assert.True(t, base == "scratch" || strings.Contains(base, "distroless"), "final stage on scratch or distroless, got %s", base)

	user := d.last(t, "USER")
	uid, _, _ := strings.Cut(user, ":")
	n, err := strconv.Atoi(uid)
	require.NoError(t, err, "USER is numeric (scratch has no /etc/passwd): %s", user)
	assert.NotZero(t, n, "non-root")
	assert.Equal(t, []string{"/data"}, execForm(t, d.last(t, "VOLUME")))

	entry := execForm(t, d.last(t, "ENTRYPOINT"))
	assert.Equal(t, []string{"/emberscope"}, entry)
	var copiedBinary bool
	for _, c := range d.instructions["COPY"] {
		if strings.HasSuffix(c, " "+entry[0]) && strings.Contains(c, "--from=build") {
			copiedBinary = true
		}
		if strings.HasSuffix(c, " /data") {
			assert.Contains(t, c, "--chown="+user, "/data belongs to the image's user")
		}
	}
	assert.True(t, copiedBinary, "the entrypoint is the binary built in the build stage")

	health := d.last(t, "HEALTHCHECK")
	_, cmd, ok := strings.Cut(health, "CMD ")
	require.True(t, ok, health)
	hc := execForm(t, cmd)
	assert.Equal(t, []string{"/emberscope", "health", "-url", "http://127.0.0.1:4040/ready"}, hc)
}

// The image's entrypoint and arguments start the store: the binary, built as
// the Dockerfile builds it, run with the image's arguments (the address moved
// to a free loopback port, /data to a temporary directory), answers /ready,
// passes the image's health check and stops cleanly on SIGTERM.
func TestImageEntrypointStartsTheStore(t *testing.T) {
	root := repoRoot(t)
	d := parseDockerfile(t, filepath.Join(root, "Dockerfile"))
	var buildLine string
	for _, r := range parseBuildStage(t, filepath.Join(root, "Dockerfile")) {
		if strings.Contains(r, "go build") {
			buildLine = r
		}
	}
	require.Contains(t, buildLine, "CGO_ENABLED=0 go build")
	require.Contains(t, buildLine, "./cmd/emberscope")

	bin := filepath.Join(t.TempDir(), "emberscope")
	build := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", bin, "./cmd/emberscope")
	build.Dir = root
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	out, err := build.CombinedOutput()
	require.NoError(t, err, string(out))
	f, err := elf.Open(bin)
	require.NoError(t, err)
	for _, p := range f.Progs {
		assert.NotEqual(t, elf.PT_INTERP, p.Type, "static: runs on an empty base image")
	}
	f.Close()

	args := execForm(t, d.last(t, "CMD"))
	require.Equal(t, []string{"store", "-listen", ":4040", "-data", "/data"}, args, "the image runs the store by default")
	data := t.TempDir()
	addr := freeLoopbackAddr(t)
	local := make([]string, len(args))
	for i, a := range args {
		switch a {
		case ":4040":
			local[i] = addr
		case "/data":
			local[i] = data
		default:
			local[i] = a
		}
	}
	store := exec.Command(bin, local...)
	var logged bytes.Buffer
	store.Stdout, store.Stderr = &logged, &logged
	require.NoError(t, store.Start())
	defer store.Process.Kill()
	exited := make(chan error, 1)
	go func() { exited <- store.Wait() }()
	waitReady(t, "http://"+addr+"/ready", exited, &logged)

	resp, err := http.Get("http://" + addr + "/ready")
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "ready\n", string(body))
	entries, err := os.ReadDir(data)
	require.NoError(t, err)
	assert.NotEmpty(t, entries, "the database lives in the data directory")

	// The image's health check, pointed at this store, passes; at a port
	// nobody listens on, it fails.
	hc := execForm(t, strings.SplitN(d.last(t, "HEALTHCHECK"), "CMD ", 2)[1])
	check := func(url string) error {
		cmd := exec.CommandContext(context.Background(), bin, append(hc[1:len(hc)-1], url)...)
		return cmd.Run()
	}
	assert.NoError(t, check("http://"+addr+"/ready"))
	assert.Error(t, check("http://127.0.0.1:1/ready"))

	require.NoError(t, store.Process.Signal(syscall.SIGTERM))
	assert.NoError(t, <-exited, "stops cleanly on SIGTERM (what docker stop sends): %s", logged.String())
}

// freeLoopbackAddr returns a loopback address with a port free right now.
func freeLoopbackAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	require.NoError(t, l.Close())
	return addr
}

// waitReady polls url until it answers, failing if the process exits first.
func waitReady(t *testing.T, url string, exited <-chan error, logged *bytes.Buffer) {
	t.Helper()
	for {
		select {
		case err := <-exited:
			t.Fatalf("the store exited before it was ready (%v): %s", err, logged.String())
		default:
		}
		resp, err := http.Get(url)
		if err == nil {
			resp.Body.Close()
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// parseBuildStage returns the RUN lines of the Dockerfile's first stage.
func parseBuildStage(t *testing.T, name string) []string {
	t.Helper()
	b, err := os.ReadFile(name)
	require.NoError(t, err)
	text := strings.ReplaceAll(string(b), "\\\n", " ")
	var runs []string
	stage := 0
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "FROM ") {
			stage++
		}
		if stage == 1 && strings.HasPrefix(l, "RUN ") {
			runs = append(runs, l)
		}
	}
	return runs
}
