// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package playground

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/grafana/grafana-plugin-sdk-go/backend"
	"github.com/grafana/grafana-plugin-sdk-go/backend/gtime"
)

// maxQueryBody bounds the body of POST /api/ds/query.
const maxQueryBody = 4 << 20

// Defaults Grafana applies to a query that does not set them.
const (
	defaultMaxDataPoints = 100
	defaultInterval      = time.Second
)

// query serves POST /api/ds/query: Grafana's body {from, to, queries: [...]}
// becomes one QueryDataRequest to the plugin, and its answer is written as
// Grafana writes it, {"results": {"A": {"frames": [...]}}}, with a failed
// query as {"error": ..., "status": ...} under its refId. As Grafana does
// with its multi-status option, the reply is 207 when some query failed, so
// the other queries' frames still reach the page.
func (h *host) query(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxQueryBody))
	if err != nil {
		writeMessage(w, http.StatusBadRequest, fmt.Sprintf("cannot read the request body: %v", err))
		return
	}
	queries, status, err := decodeQueries(body, time.Now())
	if err != nil {
		writeMessage(w, status, err.Error())
		return
	}
	resp, err := h.ds.QueryData(r.Context(), &backend.QueryDataRequest{
		PluginContext: h.pluginContext(),
		Headers:       map[string]string{},
		Queries:       queries,
	})
	if err != nil {
		writeMessage(w, http.StatusInternalServerError, fmt.Sprintf("query failed: %v", err))
		return
	}
	out, err := json.Marshal(resp)
	if err != nil {
		writeMessage(w, http.StatusInternalServerError, fmt.Sprintf("cannot encode the answer: %v", err))
		return
	}
	code := http.StatusOK
	for _, res := range resp.Responses {
		if res.Error != nil {
			code = http.StatusMultiStatus
		}
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_, _ = w.Write(out)
}

// wireRange is a time range as Grafana's API takes it: epoch milliseconds
// as strings or numbers, or relative times such as "now-1h".
type wireRange struct {
	From json.RawMessage `json:"from"`
	To   json.RawMessage `json:"to"`
}

// wireQuery holds the fields of one query that Grafana itself reads; the
// whole object goes to the plugin as the query's JSON.
type wireQuery struct {
	RefID      string `json:"refId"`
	QueryType  string `json:"queryType"`
	Datasource *struct {
		UID  string `json:"uid"`
		Type string `json:"type"`
	} `json:"datasource"`
	MaxDataPoints int64      `json:"maxDataPoints"`
	IntervalMS    float64    `json:"intervalMs"`
	TimeRange     *wireRange `json:"timeRange"`
}

// decodeQueries turns Grafana's query body into the plugin's queries, or says
// what is wrong with it and which HTTP status that deserves.
func decodeQueries(body []byte, now time.Time) ([]backend.DataQuery, int, error) {
	var raw struct {
		wireRange
		Queries []json.RawMessage `json:"queries"`
	}
	if err := json.Unmarshal(body, &raw); err != nil {
		return nil, http.StatusBadRequest, fmt.Errorf("the body is not a JSON query request: %v", err)
	}
	if len(raw.Queries) == 0 {
		return nil, http.StatusBadRequest, fmt.Errorf("no queries found: the body needs \"queries\": [{\"refId\": \"A\", ...}]")
	}
	var shared *backend.TimeRange
	if len(raw.From) > 0 || len(raw.To) > 0 {
		tr, err := parseRange(raw.wireRange, now, "")
		if err != nil {
			return nil, http.StatusBadRequest, err
		}
		shared = &tr
	}
	out := make([]backend.DataQuery, 0, len(raw.Queries))
	for i, body := range raw.Queries {
		var q wireQuery
		if err := json.Unmarshal(body, &q); err != nil {
			return nil, http.StatusBadRequest, fmt.Errorf("queries[%d]: %v", i, err)
		}
		if q.Datasource != nil && q.Datasource.UID != "" && q.Datasource.UID != DatasourceUID {
			return nil, http.StatusNotFound, fmt.Errorf("queries[%d]: Data source not found: the playground serves only uid %q, not %q", i, DatasourceUID, q.Datasource.UID)
		}
		dq := backend.DataQuery{
			RefID:         q.RefID,
			QueryType:     q.QueryType,
			MaxDataPoints: q.MaxDataPoints,
			Interval:      time.Duration(q.IntervalMS * float64(time.Millisecond)),
			JSON:          json.RawMessage(body),
		}
		if dq.RefID == "" {
			dq.RefID = string(rune('A' + i%26))
		}
		if dq.MaxDataPoints <= 0 {
			dq.MaxDataPoints = defaultMaxDataPoints
		}
		if dq.Interval <= 0 {
			dq.Interval = defaultInterval
		}
		switch {
		case q.TimeRange != nil:
			tr, err := parseRange(*q.TimeRange, now, fmt.Sprintf("queries[%d].timeRange.", i))
			if err != nil {
				return nil, http.StatusBadRequest, err
			}
			dq.TimeRange = tr
		case shared != nil:
			dq.TimeRange = *shared
		}
		out = append(out, dq)
	}
	return out, http.StatusOK, nil
}

// parseRange reads a range with Grafana's own time parser.
func parseRange(r wireRange, now time.Time, prefix string) (backend.TimeRange, error) {
	from, err := timeString(prefix+"from", r.From)
	if err != nil {
		return backend.TimeRange{}, err
	}
	to, err := timeString(prefix+"to", r.To)
	if err != nil {
		return backend.TimeRange{}, err
	}
	if from == "" || to == "" {
		return backend.TimeRange{}, fmt.Errorf("%sfrom and %sto are both required, e.g. \"from\": \"now-1h\", \"to\": \"now\"", prefix, prefix)
	}
	tr := gtime.TimeRange{From: from, To: to, Now: now}
	f, err := tr.ParseFrom()
	if err != nil {
		return backend.TimeRange{}, fmt.Errorf("%sfrom: %q is not a time: %v", prefix, from, err)
	}
	t, err := tr.ParseTo()
	if err != nil {
		return backend.TimeRange{}, fmt.Errorf("%sto: %q is not a time: %v", prefix, to, err)
	}
	return backend.TimeRange{From: f.UTC(), To: t.UTC()}, nil
}

// timeString turns a JSON string or number into Grafana's time string.
func timeString(field string, raw json.RawMessage) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, nil
	}
	var n json.Number
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&n); err == nil {
		if ms, err := n.Int64(); err == nil {
			return strconv.FormatInt(ms, 10), nil
		}
	}
	return "", fmt.Errorf("%s: %s is neither epoch milliseconds nor a time such as \"now-1h\"", field, raw)
}
