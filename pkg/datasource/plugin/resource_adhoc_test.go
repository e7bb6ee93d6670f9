// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/grafana/grafana-plugin-sdk-go/backend"
	"github.com/grafana/grafana-plugin-sdk-go/data"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/internal/fixtures"
	"github.com/emberscope/emberscope/internal/pproforacle"
)

// grafanaResourceLimit is the largest body Grafana passes to a plugin's
// CallResource by default (16 MiB through the plugin protocol).
const grafanaResourceLimit = 16 << 20

// adhocCall calls an ad hoc route as Grafana does, for user login.
func adhocCall(t *testing.T, d *Datasource, login, method, path, rawQuery string, body []byte) (int, []byte) {
	t.Helper()
	require.LessOrEqual(t, len(body), grafanaResourceLimit, "a resource call's body over Grafana's limit")
	u := path
	if rawQuery != "" {
		u += "?" + rawQuery
	}
	var got *backend.CallResourceResponse
	err := d.CallResource(context.Background(), &backend.CallResourceRequest{
		//lint:ignore SA1019 the ad hoc files are bound to the organisation id (see adhocUser)
		PluginContext: backend.PluginContext{OrgID: 1, User: &backend.User{Login: login}, DataSourceInstanceSettings: &backend.DataSourceInstanceSettings{UID: "emberscope"}},
		Path:          path, Method: method, URL: u, Body: body,
		Headers: map[string][]string{"Content-Type": {"application/octet-stream"}},
	}, backend.CallResourceResponseSenderFunc(func(r *backend.CallResourceResponse) error {
		if got == nil {
			got = r
		} else {
			got.Body = append(got.Body, r.Body...)
		}
		return nil
	}))
	require.NoError(t, err)
	require.NotNil(t, got)
	return got.Status, got.Body
}

// upload sends a file in chunks of at most chunk bytes and returns its id.
func upload(t *testing.T, d *Datasource, login, name string, file []byte, chunk int) (string, int) {
	t.Helper()
	id, calls := "", 0
	for off := 0; off < len(file); off += chunk {
		end := min(off+chunk, len(file))
		v := url.Values{"name": {name}, "size": {strconv.Itoa(len(file))}, "offset": {strconv.Itoa(off)}}
		if id != "" {
			v.Set("uploadId", id)
		}
		status, body := adhocCall(t, d, login, http.MethodPost, "adhoc/upload", v.Encode(), file[off:end])
		calls++
		require.Equal(t, http.StatusOK, status, "%s", body)
		var ans adhocUploadAnswer
		require.NoError(t, json.Unmarshal(body, &ans))
		id = ans.UploadID
		if end == len(file) {
			require.NotNil(t, ans.Profile, "the last chunk opened no file: %s", body)
			return ans.Profile.ID, calls
		}
	}
	t.Fatal("no chunk sent")
	return "", 0
}

func adhocFrames(t *testing.T, d *Datasource, login, path string, req any) data.Frames {
	t.Helper()
	js, err := json.Marshal(req)
	require.NoError(t, err)
	status, body := adhocCall(t, d, login, http.MethodPost, path, "", js)
	require.Equal(t, http.StatusOK, status, "%s", body)
	var ans struct {
		Frames []*data.Frame `json:"frames"`
	}
	require.NoError(t, json.Unmarshal(body, &ans))
	return ans.Frames
}

func int64Field(t *testing.T, f *data.Frame, name string) []int64 {
	t.Helper()
	fl, i := f.FieldByName(name)
	require.GreaterOrEqual(t, i, 0, "no field %s", name)
	out := make([]int64, fl.Len())
	for j := range out {
		out[j] = fl.At(j).(int64)
	}
	return out
}

// A pprof larger than one resource call arrives in chunks the way Grafana
// passes them and shows pprof's total and every function's flat value; it
// is its uploader's only.
func TestAdhocFileLargerThanOneCall(t *testing.T) {
	d := newDS(t, "http://127.0.0.1:1")
	path := fixtures.ProfilePath(t, "categories.cpu.pb.gz")
	p, err := profile.Parse(bytes.NewReader(fixtures.Profile(t, "categories.cpu.pb.gz")))
	require.NoError(t, err)
	p.Comments = append(p.Comments, strings.Repeat("padding ", (grafanaResourceLimit+1<<20)/8))
	var big bytes.Buffer
	require.NoError(t, p.WriteUncompressed(&big))
	require.Greater(t, big.Len(), grafanaResourceLimit)

	id, calls := upload(t, d, "alice", "categories.cpu.pb", big.Bytes(), grafanaResourceLimit)
	require.Equal(t, 2, calls)

	want := pproforacle.Top(t, path, pproforacle.Options{SampleType: "cpu"})
	frames := adhocFrames(t, d, "alice", "adhoc/get", map[string]any{"ids": []string{id}, "query": map[string]any{
		"queryType": "profile", "profileTypeId": "process_cpu:cpu:nanoseconds:cpu:nanoseconds", "maxNodes": 100000,
	}})
	require.Len(t, frames, 1)
	rows := flameRows(t, frames[0])
	require.Equal(t, want.Total, rows[0].Value, "root total vs go tool pprof -top")
	got := selfByName(rows[1:])
	for name, flat := range want.Flat() {
		require.Equal(t, flat, got[name], "flat of %s vs go tool pprof -top", name)
	}

	status, body := adhocCall(t, d, "bob", http.MethodPost, "adhoc/get", "", []byte(`{"ids":["`+id+`"],"query":{"profileTypeId":"process_cpu:cpu:nanoseconds:cpu:nanoseconds"}}`))
	require.Equal(t, http.StatusNotFound, status, "another user read the file: %s", body)
	_, body = adhocCall(t, d, "bob", http.MethodGet, "adhoc/list", "", nil)
	require.JSONEq(t, `{"profiles":[]}`, string(body))
	_, body = adhocCall(t, d, "alice", http.MethodGet, "adhoc/list", "", nil)
	require.Contains(t, string(body), `"name":"categories.cpu.pb"`)
}

// The labels breakdown of a file is `go tool pprof -tags`.
func TestAdhocLabelsArePprofTags(t *testing.T) {
	d := newDS(t, "http://127.0.0.1:1")
	name := "categories.cpu.pb.gz"
	id, _ := upload(t, d, "alice", name, fixtures.Profile(t, name), 1<<20)
	frames := adhocFrames(t, d, "alice", "adhoc/get", map[string]any{"ids": []string{id}, "query": map[string]any{
		"queryType": "labels", "profileTypeId": "process_cpu:cpu:nanoseconds:cpu:nanoseconds", "expr": "{} by (category)",
	}})
	require.Len(t, frames, 1)
	values, _ := frames[0].FieldByName("category")
	totals := int64Field(t, frames[0], "total")
	got := map[string]int64{}
	for i := range totals {
		got[values.At(i).(string)] = totals[i]
	}
	tags := pproforacle.Output(t, fixtures.ProfilePath(t, name), "-tags", "-unit=ns", "-tagfocus=category=.")
	want := map[string]int64{}
	re := regexp.MustCompile(`(?m)^\s+(\d+)ns \(\s*[\d.]+%\): (\S+)$`)
	for _, m := range re.FindAllStringSubmatch(tags, -1) {
		v, _ := strconv.ParseInt(m[1], 10, 64)
		want[m[2]] = v
	}
	require.NotEmpty(t, want, "pprof -tags printed no category:\n%s", tags)
	for k, v := range want {
		require.Equal(t, v, got[k], "category=%s vs go tool pprof -tags\n%s", k, tags)
	}
}

// pprofFlat is pprof's flat per function (Pyroscope's names) of a -top run.
func pprofFlat(t *testing.T, path string, args ...string) (map[string]int64, int64) {
	t.Helper()
	out := pproforacle.Output(t, path, append([]string{"-top", "-nodecount=0", "-nodefraction=0", "-edgefraction=0", "-unit=ns"}, args...)...)
	flat := map[string]int64{}
	var total int64
	rows := false
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		switch {
		case strings.Contains(line, "% of ") && strings.HasSuffix(line, " total"):
			i := strings.Index(line, "% of ")
			v, err := strconv.ParseInt(strings.TrimSuffix(strings.Fields(line[i+5:])[0], "ns"), 10, 64)
			require.NoError(t, err, "total line %q", line)
			total = v
		case len(f) > 0 && f[0] == "flat":
			rows = true
		case rows && len(f) >= 6:
			v, err := strconv.ParseInt(strings.TrimSuffix(f[0], "ns"), 10, 64)
			require.NoError(t, err, "row %q", line)
			name := strings.TrimSuffix(strings.TrimSuffix(strings.Join(f[5:], " "), " (inline)"), " (partial-inline)")
			flat[pproforacle.PyroscopeName(name)] += v
		}
	}
	require.True(t, rows, "no rows in pprof's output:\n%s", out)
	return flat, total
}

// Baseline against comparison: per-function differences of the diff frame
// are `go tool pprof -top -diff_base` (with -normalize too), and -base's
// total is pprof's.
func TestAdhocDiffIsPprofDiffBase(t *testing.T) {
	d := newDS(t, "http://127.0.0.1:1")
	oldPath, newPath := fixtures.ProfilePath(t, "routes-1.cpu.pb.gz"), fixtures.ProfilePath(t, "routes-2.cpu.pb.gz")
	oldID, _ := upload(t, d, "alice", filepath.Base(oldPath), fixtures.Profile(t, "routes-1.cpu.pb.gz"), 1<<20)
	newID, _ := upload(t, d, "alice", filepath.Base(newPath), fixtures.Profile(t, "routes-2.cpu.pb.gz"), 1<<20)
	query := map[string]any{"profileTypeId": "process_cpu:cpu:nanoseconds:cpu:nanoseconds", "maxNodes": 100000}
	for _, normalize := range []bool{false, true} {
		args := []string{"-diff_base=" + oldPath}
		if normalize {
			args = append(args, "-normalize")
		}
		want, _ := pprofFlat(t, newPath, args...)
		frames := adhocFrames(t, d, "alice", "adhoc/diff", map[string]any{"leftIds": []string{oldID}, "rightIds": []string{newID}, "query": query, "normalize": normalize})
		require.Len(t, frames, 1)
		rows := flameRows(t, frames[0])
		selfRight := int64Field(t, frames[0], "selfRight")
		got := map[string]int64{}
		for i, r := range rows[1:] {
			got[r.Label] += selfRight[i+1] - r.Self
		}
		for name, v := range want {
			require.Equal(t, v, got[name], "normalize=%v: %s vs go tool pprof -top -diff_base", normalize, name)
		}
		for name, v := range got {
			require.Equal(t, want[name], v, "normalize=%v: %s vs go tool pprof -top -diff_base", normalize, name)
		}
	}
	// -base: pprof's "total" is the sum of |sample|; the net is its flats' sum.
	wantFlat, _ := pprofFlat(t, newPath, "-base="+oldPath)
	var net int64
	for _, v := range wantFlat {
		net += v
	}
	frames := adhocFrames(t, d, "alice", "adhoc/diff", map[string]any{"leftIds": []string{oldID}, "rightIds": []string{newID}, "query": query, "mode": "base"})
	rows := flameRows(t, frames[0])
	require.Equal(t, net, rows[0].Value, "-base net total vs go tool pprof -top -base")
	got := selfByName(rows[1:])
	for name, v := range wantFlat {
		require.Equal(t, v, got[name], "-base: %s vs go tool pprof -top -base", name)
	}
}

// Refused files get a clear error and the server keeps serving.
func TestAdhocRefusals(t *testing.T) {
	d := newDS(t, "http://127.0.0.1:1")
	for _, c := range []struct {
		name, body, want string
	}{
		{"garbage.bin", "\x00\x01garbage\xff", "garbage.bin: not a profile"},
		{"stacks.txt", "a;b 1\nnot a line\n", "stacks.txt: collapsed stacks: line 2"},
	} {
		status, body := adhocCall(t, d, "alice", http.MethodPost, "adhoc/upload", url.Values{"name": {c.name}}.Encode(), []byte(c.body))
		require.Equal(t, http.StatusBadRequest, status, "%s", body)
		require.Contains(t, string(body), c.want)
	}
	status, body := adhocCall(t, d, "alice", http.MethodPost, "adhoc/upload", url.Values{"name": {"empty.pb"}}.Encode(), nil)
	require.Equal(t, http.StatusBadRequest, status)
	require.Contains(t, string(body), "empty.pb: the file is empty")
	status, body = adhocCall(t, d, "alice", http.MethodPost, "adhoc/upload", url.Values{"name": {"huge.pb"}, "size": {strconv.Itoa(1 << 30)}}.Encode(), []byte("x"))
	require.Equal(t, http.StatusBadRequest, status)
	require.Contains(t, string(body), "huge.pb: the file has 1073741824 bytes, more than the limit")
	id, _ := upload(t, d, "alice", "stacks.txt", []byte("main;work 3\nmain 1\n"), 1<<20)
	frames := adhocFrames(t, d, "alice", "adhoc/get", map[string]any{"ids": []string{id}, "query": map[string]any{"profileTypeId": "collapsed:samples:count:samples:count"}})
	require.Equal(t, int64(4), flameRows(t, frames[0])[0].Value)
}
