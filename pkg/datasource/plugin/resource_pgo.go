// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"bytes"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/emberscope/emberscope/pkg/datasource/query"
	"github.com/emberscope/emberscope/pkg/datasource/source"
	"github.com/emberscope/emberscope/pkg/profile/gopgo"
	"github.com/emberscope/emberscope/pkg/profile/model"
)

// pgoFileName is the name `go build` looks for in a main package's
// directory (-pgo=auto).
const pgoFileName = "default.pgo"

// pgo answers GET pgo?profileTypeId=&labelSelector=&from=&to=[&keepLocations=&aggregateCallees=]
// with the merged CPU profile of a selection, cut for `go build -pgo=` as
// Pyroscope's go_pgo stack trace selector cuts it: a gzipped pprof that
// build scripts can fetch as well as the editor's download. Pyroscope and
// the store cut it themselves; a Parca answer is cut by the Parca client.
func (d *Datasource) pgo(w http.ResponseWriter, r *http.Request) {
	body, err := d.pgoProfile(r)
	writeDownload(w, "pgo", body, pgoFileName, err)
}

func (d *Datasource) pgoProfile(r *http.Request) ([]byte, error) {
	if r.Method != http.MethodGet && r.Method != http.MethodPost {
		return nil, userErrorf("%s is not allowed: use GET or POST", r.Method)
	}
	v, err := params(r)
	if err != nil {
		return nil, err
	}
	typeID := strings.TrimSpace(v.Get("profileTypeId"))
	if err := checkPGOProfileType(typeID); err != nil {
		return nil, err
	}
	opts, err := pgoOptions(v)
	if err != nil {
		return nil, err
	}
	tr, err := pgoRange(v, time.Now())
	if err != nil {
		return nil, err
	}
	q, err := query.Compile(query.Model{ProfileTypeID: typeID, LabelSelector: v.Get("labelSelector")})
	if err != nil {
		return nil, err
	}
	p, err := d.src.MergeProfile(r.Context(), source.StacksRequest{
		Selection: source.Selection{ProfileTypeID: q.ProfileTypeID, LabelSelector: q.Selector, Range: tr},
		GoPGO:     &opts,
	})
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := p.Write(&buf); err != nil {
		return nil, fmt.Errorf("encode the Go PGO profile: %w", err)
	}
	return buf.Bytes(), nil
}

// checkPGOProfileType accepts the profile types whose samples the Go
// compiler reads as CPU time: samples/count or cpu/nanoseconds.
func checkPGOProfileType(id string) error {
	if id == "" {
		return userErrorf("profileTypeId: missing; Go PGO needs a CPU profile type such as process_cpu:cpu:nanoseconds:cpu:nanoseconds")
	}
	t, err := model.ParseProfileType(id)
	if err != nil {
		return userErrorf("profileTypeId: %v", err)
	}
	if (t.SampleType == "cpu" && t.SampleUnit == "nanoseconds") || (t.SampleType == "samples" && t.SampleUnit == "count") {
		return nil
	}
	return userErrorf("profileTypeId: %q is not a CPU profile type: Go PGO reads cpu:nanoseconds or samples:count samples", id)
}

// pgoOptions reads keepLocations and aggregateCallees, each defaulting to
// what profilecli and Grafana's profiles Drilldown ask Pyroscope for.
func pgoOptions(v url.Values) (gopgo.Options, error) {
	o := gopgo.Defaults()
	if s := strings.TrimSpace(v.Get("keepLocations")); s != "" {
		n, err := strconv.ParseUint(s, 10, 32)
		if err != nil {
			return o, userErrorf("keepLocations: %q is not a whole number of locations (0 keeps every location)", s)
		}
		o.KeepLocations = int(n)
	}
	if s := strings.TrimSpace(v.Get("aggregateCallees")); s != "" {
		b, err := strconv.ParseBool(s)
		if err != nil {
			return o, userErrorf("aggregateCallees: %q is not true or false", s)
		}
		o.AggregateCallees = b
	}
	return o, nil
}

// pgoRange reads from and to (start and end are accepted too, as the other
// resources name them): epoch milliseconds, "now" or "now-<duration>" such
// as now-7d or now-90m, for build scripts. Absent, the last 24 hours.
func pgoRange(v url.Values, now time.Time) (source.TimeRange, error) {
	tr := source.TimeRange{From: now.Add(-defaultResourceLookback), To: now}
	for _, p := range []struct {
		name, alias string
		dst         *time.Time
	}{{"from", "start", &tr.From}, {"to", "end", &tr.To}} {
		name, s := p.name, strings.TrimSpace(v.Get(p.name))
		if s == "" {
			name, s = p.alias, strings.TrimSpace(v.Get(p.alias))
		}
		if s == "" {
			continue
		}
		t, err := pgoTime(s, now)
		if err != nil {
			return tr, userErrorf("%s: %q is not a time: use epoch milliseconds, now or now-<duration> such as now-7d", name, s)
		}
		*p.dst = t
	}
	if !tr.From.Before(tr.To) {
		return tr, userErrorf("from %d is not before to %d", tr.From.UnixMilli(), tr.To.UnixMilli())
	}
	return tr, nil
}

func pgoTime(s string, now time.Time) (time.Time, error) {
	if ms, err := strconv.ParseInt(s, 10, 64); err == nil {
		if ms < 0 {
			return time.Time{}, fmt.Errorf("negative")
		}
		return time.UnixMilli(ms).UTC(), nil
	}
	if s == "now" {
		return now, nil
	}
	ago, ok := strings.CutPrefix(s, "now-")
	if !ok {
		return time.Time{}, fmt.Errorf("not a time")
	}
	if days, ok := strings.CutSuffix(ago, "d"); ok {
		n, err := strconv.ParseUint(days, 10, 16)
		if err != nil {
			return time.Time{}, err
		}
		return now.Add(-time.Duration(n) * 24 * time.Hour), nil
	}
	d, err := time.ParseDuration(ago)
	if err != nil || d <= 0 {
		return time.Time{}, fmt.Errorf("not a duration")
	}
	return now.Add(-d), nil
}
