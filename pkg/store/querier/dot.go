// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package querier

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/google/pprof/driver"
	"github.com/google/pprof/profile"
)

// dotGraph draws p as Graphviz DOT the way `go tool pprof -dot` does, with
// google/pprof's own driver, as Pyroscope answers PROFILE_FORMAT_DOT
// (recording 61): one node per function and line (-lines), at most
// maxNodes of them (-nodecount), none dropped for being small
// (-nodefraction=0 -edgefraction=0), no symbolization.
func dotGraph(p *profile.Profile, maxNodes int) (string, error) {
	args := []string{
		"-dot", "-lines", "-symbolize=none", "-nodefraction=0", "-edgefraction=0",
		"-nodecount=" + strconv.Itoa(maxNodes), "-output=" + dotOutput, "merged",
	}
	w := &dotWriter{}
	ui := &quietUI{}
	err := driver.PProf(&driver.Options{
		Flagset: newArgFlags(args),
		Fetch:   fixedFetcher{p},
		Writer:  w,
		UI:      ui,
	})
	if err != nil {
		return "", fmt.Errorf("pprof -dot: %w%s", err, ui.errs())
	}
	if w.buf == nil {
		return "", fmt.Errorf("pprof -dot wrote no graph%s", ui.errs())
	}
	return pyroscopeTime(w.buf.String(), p.TimeNanos), nil
}

// pyroscopeTime writes the graph legend's time as Pyroscope's copy of the
// pprof report writes it ("Time: Dec 2, 2026 at 3:26am (UTC)", the older
// pprof form; google/pprof now writes "2026-12-02 03:26:21 UTC"), in UTC
// whatever the server's time zone, so that one answer reads the same
// everywhere.
func pyroscopeTime(dot string, timeNanos int64) string {
	const label = `\lTime: `
	i := strings.Index(dot, label)
	if i < 0 || timeNanos == 0 {
		return dot
	}
	j := strings.Index(dot[i+len(label):], `\l`)
	if j < 0 {
		return dot
	}
	t := time.Unix(0, timeNanos).UTC().Format("Jan 2, 2006 at 3:04pm (MST)")
	return dot[:i+len(label)] + t + dot[i+len(label)+j:]
}

const dotOutput = "graph.dot"

type fixedFetcher struct{ p *profile.Profile }

func (f fixedFetcher) Fetch(string, time.Duration, time.Duration) (*profile.Profile, string, error) {
	return f.p.Copy(), "", nil
}

type dotWriter struct{ buf *bytes.Buffer }

func (w *dotWriter) Open(name string) (io.WriteCloser, error) {
	if name != dotOutput {
		return nil, fmt.Errorf("unexpected output %q", name)
	}
	w.buf = &bytes.Buffer{}
	return nopCloser{w.buf}, nil
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// quietUI keeps what the driver would print, for errors.
type quietUI struct{ msgs []string }

func (u *quietUI) ReadLine(string) (string, error) { return "", io.EOF }
func (u *quietUI) Print(args ...any)               {}
func (u *quietUI) PrintErr(args ...any)            { u.msgs = append(u.msgs, fmt.Sprint(args...)) }
func (u *quietUI) IsTerminal() bool                { return false }
func (u *quietUI) WantBrowser() bool               { return false }
func (u *quietUI) SetAutoComplete(func(string) string) {
}

func (u *quietUI) errs() string {
	if len(u.msgs) == 0 {
		return ""
	}
	return " (" + strings.Join(u.msgs, "; ") + ")"
}

// argFlags is driver.FlagSet over a fixed argument list.
type argFlags struct {
	fs   *flag.FlagSet
	args []string
}

func newArgFlags(args []string) *argFlags {
	fs := flag.NewFlagSet("pprof", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return &argFlags{fs: fs, args: args}
}

func (f *argFlags) Bool(n string, d bool, u string) *bool          { return f.fs.Bool(n, d, u) }
func (f *argFlags) Int(n string, d int, u string) *int             { return f.fs.Int(n, d, u) }
func (f *argFlags) Float64(n string, d float64, u string) *float64 { return f.fs.Float64(n, d, u) }
func (f *argFlags) String(n string, d string, u string) *string    { return f.fs.String(n, d, u) }
func (f *argFlags) ExtraUsage() string                             { return "" }
func (f *argFlags) AddExtraUsage(string)                           {}

func (f *argFlags) StringList(n string, d string, u string) *[]*string {
	l := &stringList{}
	if d != "" {
		l.v = append(l.v, &d)
	}
	f.fs.Var(l, n, u)
	return &l.v
}

func (f *argFlags) Parse(usage func()) []string {
	if err := f.fs.Parse(f.args); err != nil {
		usage()
		return nil
	}
	return f.fs.Args()
}

type stringList struct{ v []*string }

func (l *stringList) String() string { return "" }
func (l *stringList) Set(s string) error {
	if s == "" {
		return errors.New("empty value")
	}
	l.v = append(l.v, &s)
	return nil
}
