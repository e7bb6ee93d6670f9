// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/emberscope/emberscope/internal/fixtures"
	"github.com/emberscope/emberscope/internal/pproforacle"
)

// startOpen runs `emberscope open -no_browser args...` and returns the
// address it printed.
func startOpen(t *testing.T, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	r, w := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- serveFiles(ctx, append([]string{"-listen", "127.0.0.1:0", "-no_browser"}, args...), w, func(string) { t.Error("a browser was opened despite -no_browser") })
		w.Close()
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("open: %v", err)
		}
	})
	line, err := bufio.NewReader(r).ReadString('\n')
	if err != nil {
		t.Fatalf("open printed no address: %v", err)
	}
	go func() { _, _ = io.Copy(io.Discard, r) }()
	i := strings.Index(line, "http://")
	if i < 0 {
		t.Fatalf("open printed %q, no address", line)
	}
	return strings.TrimSpace(line[i:])
}

// The page's address opens, and its query answers the root total pprof
// gives for the file.
func TestOpenServesTheFileWithPprofsTotal(t *testing.T) {
	path := fixtures.ProfilePath(t, "categories.cpu.pb.gz")
	// a stand-in for the built page (tests/e2e/openfile.spec.ts shows the real one)
	static := t.TempDir()
	if err := writeFile(static+"/index.html", []byte("<html>playground</html>")); err != nil {
		t.Fatal(err)
	}
	page := startOpen(t, "-static", static, path)
	u, err := url.Parse(page)
	if err != nil {
		t.Fatal(err)
	}
	res, err := http.Get(page)
	if err != nil {
		t.Fatal(err)
	}
	html, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK || !strings.Contains(string(html), "playground") {
		t.Fatalf("GET %s: %s %q", page, res.Status, html)
	}
	query := u.Query().Get("query")
	if !strings.HasPrefix(query, "process_cpu:cpu:nanoseconds:cpu:nanoseconds") {
		t.Fatalf("the page's query %q is not the file's cpu profile", query)
	}
	now := time.Now().UnixMilli()
	body := `{"from":"` + strconv.FormatInt(now-3600_000, 10) + `","to":"` + strconv.FormatInt(now, 10) + `","queries":[{"refId":"A","queryType":"profile","datasource":{"uid":"emberscope"},"profileTypeId":"process_cpu:cpu:nanoseconds:cpu:nanoseconds","labelSelector":"{}"}]}`
	res, err = http.Post("http://"+u.Host+"/api/ds/query", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var ans struct {
		Results map[string]struct {
			Error  string `json:"error"`
			Frames []struct {
				Schema struct {
					Fields []struct{ Name string } `json:"fields"`
				} `json:"schema"`
				Data struct {
					Values [][]json.RawMessage `json:"values"`
				} `json:"data"`
			} `json:"frames"`
		} `json:"results"`
	}
	if err := json.NewDecoder(res.Body).Decode(&ans); err != nil {
		t.Fatal(err)
	}
	a := ans.Results["A"]
	if a.Error != "" || len(a.Frames) == 0 {
		t.Fatalf("query failed: %q (%d frames)", a.Error, len(a.Frames))
	}
	f := a.Frames[0]
	var root int64 = -1
	for i, fl := range f.Schema.Fields {
		if fl.Name == "value" {
			if err := json.Unmarshal(f.Data.Values[i][0], &root); err != nil {
				t.Fatal(err)
			}
		}
	}
	if want := pproforacle.Top(t, path, pproforacle.Options{SampleType: "cpu"}).Total; root != want {
		t.Errorf("root total %d, go tool pprof -top says %d", root, want)
	}
}

// -diff_base opens the playground's diff of the files against the base.
func TestOpenDiffBaseOpensADiff(t *testing.T) {
	page := startOpen(t, "-diff_base", fixtures.ProfilePath(t, "routes-1.cpu.pb.gz"), fixtures.ProfilePath(t, "routes-2.cpu.pb.gz"))
	u, err := url.Parse(page)
	if err != nil {
		t.Fatal(err)
	}
	var q struct {
		QueryType     string `json:"queryType"`
		LabelSelector string `json:"labelSelector"`
		Comparison    struct {
			LabelSelector string `json:"labelSelector"`
		} `json:"comparison"`
	}
	if err := json.Unmarshal([]byte(u.Query().Get("json")), &q); err != nil {
		t.Fatalf("the page's json %q: %v", u.Query().Get("json"), err)
	}
	if q.QueryType != "diff" || q.LabelSelector != `{service_name="routes-1.cpu.pb.gz"}` || q.Comparison.LabelSelector != `{service_name=~"routes-2\\.cpu\\.pb\\.gz"}` {
		t.Errorf("the page's query %+v is not routes-1 against routes-2", q)
	}
}

func TestOpenRefusesGarbage(t *testing.T) {
	path := t.TempDir() + "/garbage.pb"
	if err := writeFile(path, []byte("\x00\x01 no profile")); err != nil {
		t.Fatal(err)
	}
	err := serveFiles(context.Background(), []string{"-no_browser", path}, io.Discard, func(string) {})
	if err == nil || !strings.Contains(err.Error(), "garbage.pb: not a profile") {
		t.Errorf("error %v, want it to say garbage.pb is not a profile", err)
	}
}

func writeFile(path string, data []byte) error { return os.WriteFile(path, data, 0o600) }

// Export works on opened files: the pprof it gives totals what pprof says
// of the file.
func TestOpenExportsTheFile(t *testing.T) {
	path := fixtures.ProfilePath(t, "categories.cpu.pb.gz")
	u, err := url.Parse(startOpen(t, path))
	if err != nil {
		t.Fatal(err)
	}
	res, err := http.Get("http://" + u.Host + "/api/datasources/uid/emberscope/resources/export?profileTypeId=process_cpu:cpu:nanoseconds:cpu:nanoseconds")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("export: %s %s", res.Status, body)
	}
	got := pproforacle.TopOfBytes(t, body, pproforacle.Options{SampleType: "cpu"}).Total
	if want := pproforacle.Top(t, path, pproforacle.Options{SampleType: "cpu"}).Total; got != want {
		t.Errorf("exported total %d, the file's %d (go tool pprof -top)", got, want)
	}
}
