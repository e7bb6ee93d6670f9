// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/emberscope/emberscope/pkg/datasource/source/filesource"
	"github.com/emberscope/emberscope/pkg/hosts/playground"
	"github.com/emberscope/emberscope/pkg/profile/fileformat"
	"github.com/emberscope/emberscope/pkg/security/httpguard"
	"github.com/emberscope/emberscope/pkg/security/redact"
)

const openUsage = `usage: emberscope open [-listen ADDR] [-no_browser] [-diff_base OLD] FILE...

Serves the playground on profile files (pprof, collapsed stacks, .cpuprofile),
like go tool pprof -http: no store, no Grafana. Several files merge; with
-diff_base the files are compared against OLD.
`

// runOpen is `emberscope open`.
func runOpen(args []string) error {
	ctx, stop := signalContext()
	defer stop()
	return serveFiles(ctx, args, os.Stdout, openBrowser)
}

// serveFiles decodes the files of args, serves the playground on them until
// ctx is done, and prints the page's address to out (then calls browse
// with it, unless -no_browser).
func serveFiles(ctx context.Context, args []string, out io.Writer, browse func(string)) error {
	fs := flag.NewFlagSet("open", flag.ContinueOnError)
	fs.SetOutput(out)
	fs.Usage = func() { fmt.Fprint(out, openUsage); fs.PrintDefaults() }
	listen := fs.String("listen", "localhost:0", "address to serve the page on (port 0: any free port)")
	noBrowser := fs.Bool("no_browser", false, "do not open a browser")
	diffBase := fs.String("diff_base", "", "a profile file to compare the files against, as pprof's -diff_base")
	static := fs.String("static", "", "directory of a built playground page to serve instead of the one in the binary")
	if err := fs.Parse(args); err != nil {
		return err
	}
	paths := fs.Args()
	if len(paths) == 0 {
		fs.Usage()
		return errors.New("no profile file given")
	}
	all := paths
	if *diffBase != "" {
		all = append([]string{*diffBase}, paths...)
	}
	files, err := readFiles(all)
	if err != nil {
		return err
	}
	src := filesource.New(files...)
	h, err := playground.New(playground.Options{BackendURL: "files:", Source: src, StaticDir: *static,
		Logger: slog.New(redact.Handler(slog.NewTextHandler(io.Discard, nil)))})
	if err != nil {
		return err
	}
	l, err := net.Listen("tcp", *listen)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", *listen, err)
	}
	guarded := httpguard.Access{ListenAddr: *listen}.Guard(h)
	srv := startServer(l, guarded)
	page := pageURL(l.Addr(), src.DefaultProfileType(), files, *diffBase != "")
	fmt.Fprintf(out, "Serving %s on %s\n", strings.Join(src.Files(), ", "), page)
	if !*noBrowser {
		browse(page)
	}
	return serveUntilDone(ctx, srv)
}

// readFiles decodes every file, each named by its base name (made unique).
func readFiles(paths []string) ([]*fileformat.File, error) {
	seen := map[string]int{}
	var out []*fileformat.File
	for _, p := range paths {
		data, err := readLimited(p, fileformat.DefaultLimits().MaxFileBytes)
		if err != nil {
			return nil, err
		}
		name := filepath.Base(p)
		if n := seen[name]; n > 0 {
			name = fmt.Sprintf("%s (%d)", name, n+1)
		}
		seen[filepath.Base(p)]++
		f, err := fileformat.Decode(name, data, fileformat.DefaultLimits())
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		out = append(out, f)
	}
	return out, nil
}

// readLimited reads a file of at most max bytes.
func readLimited(path string, max int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("%s: more than %d bytes, the limit for a file", path, max)
	}
	return data, nil
}

// pageURL is the playground's address showing the files: all of them
// merged, or with diff the first one (the baseline) against the others.
func pageURL(addr net.Addr, profileType string, files []*fileformat.File, diff bool) string {
	host := addr.String()
	if tcp, ok := addr.(*net.TCPAddr); ok && tcp.IP.IsUnspecified() {
		host = net.JoinHostPort("localhost", strconv.Itoa(tcp.Port))
	}
	v := url.Values{}
	if !diff {
		v.Set("query", profileType+"{}")
		return "http://" + host + "/?" + v.Encode()
	}
	now := time.Now()
	from, to := now.Add(-time.Hour).UnixMilli(), now.UnixMilli()
	quoted := make([]string, 0, len(files)-1)
	for _, f := range files[1:] {
		quoted = append(quoted, regexp.QuoteMeta(f.Name))
	}
	q := map[string]any{
		"queryType": "diff", "profileTypeId": profileType,
		"labelSelector": fmt.Sprintf("{service_name=%q}", files[0].Name),
		"comparison":    map[string]any{"labelSelector": fmt.Sprintf("{service_name=~%q}", strings.Join(quoted, "|")), "from": from, "to": to},
	}
	js, _ := json.Marshal(q)
	v.Set("query", fmt.Sprintf("%s{service_name=%q}", profileType, files[0].Name))
	v.Set("from", strconv.FormatInt(from, 10))
	v.Set("to", strconv.FormatInt(to, 10))
	v.Set("json", string(js))
	return "http://" + host + "/?" + v.Encode()
}

// openBrowser opens page with xdg-open where there is one.
func openBrowser(page string) {
	if _, err := exec.LookPath("xdg-open"); err != nil {
		return
	}
	if err := exec.Command("xdg-open", page).Start(); err != nil {
		fmt.Fprintf(os.Stderr, "could not open a browser: %v\n", err)
	}
}
