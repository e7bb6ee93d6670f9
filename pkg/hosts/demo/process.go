// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package demo

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"
)

// serviceProcess is the demo service running in its own process, so that
// its profiles hold the service's work only (not the store's, the
// playground's or the load generator's).
type serviceProcess struct {
	cmd    *exec.Cmd
	stdin  io.Closer
	exited chan error
}

// stopTimeout bounds how long a service process may take to flush its
// profiler and exit before it is killed.
const stopTimeout = 30 * time.Second

// startServiceProcess runs command with the service flags and waits for the
// line saying where it listens.
func startServiceProcess(command []string, opts ServiceOptions, stderr io.Writer) (*serviceProcess, string, error) {
	if len(command) == 0 {
		return nil, "", errors.New("demo: no command to run the service")
	}
	args := append(command[1:len(command):len(command)],
		"-listen", opts.Listen, "-push-url", opts.PushURL,
		"-upload-rate", opts.UploadRate.String(), "-region", opts.Region)
	cmd := exec.Command(command[0], args...)
	cmd.Stderr = stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, "", err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, "", err
	}
	if err := cmd.Start(); err != nil {
		return nil, "", fmt.Errorf("demo: starting the service process %s: %w", command[0], err)
	}
	p := &serviceProcess{cmd: cmd, stdin: stdin, exited: make(chan error, 1)}

	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		found := false
		for sc.Scan() {
			line := sc.Text()
			if url, ok := strings.CutPrefix(line, listeningPrefix); ok && !found {
				found = true
				urls <- url
				continue
			}
			fmt.Fprintln(stderr, line)
		}
		close(urls)
		p.exited <- cmd.Wait()
	}()
	url, ok := <-urls
	if !ok {
		return nil, "", fmt.Errorf("demo: the service process exited before serving: %v", <-p.exited)
	}
	return p, url, nil
}

// stop closes the process's stdin (its signal to flush and exit) and waits
// for it, killing it after stopTimeout.
func (p *serviceProcess) stop() error {
	_ = p.stdin.Close()
	select {
	case err := <-p.exited:
		if err != nil {
			return fmt.Errorf("demo: the service process: %w", err)
		}
		return nil
	case <-time.After(stopTimeout):
		_ = p.cmd.Process.Kill()
		<-p.exited
		return fmt.Errorf("demo: the service process did not stop within %s and was killed", stopTimeout)
	}
}

// defaultServiceCommand runs this executable's `demo -service`.
func defaultServiceCommand() ([]string, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("demo: finding this executable to run the service: %w", err)
	}
	return []string{exe, "demo", "-service"}, nil
}
