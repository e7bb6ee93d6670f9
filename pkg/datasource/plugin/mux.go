// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"context"
	"sync"

	"github.com/grafana/grafana-plugin-sdk-go/backend"
	"github.com/grafana/grafana-plugin-sdk-go/backend/datasource"
	"github.com/grafana/grafana-plugin-sdk-go/backend/tracing"
	"github.com/grafana/grafana-plugin-sdk-go/data"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/emberscope/emberscope/pkg/datasource/source/rangesplit"
)

// queryFunc answers one parsed query with its frames.
type queryFunc func(ctx context.Context, r *request) (data.Frames, error)

// maxParallelQueries bounds how many queries of one request run at once.
const maxParallelQueries = 4

// queryMux routes each query by its queryType, one handler per type; a query
// without a type is a "both" query, as in Grafana Explore.
func (d *Datasource) queryMux() *datasource.QueryTypeMux {
	mux := datasource.NewQueryTypeMux()
	for kind, fn := range d.queryFuncs() {
		mux.HandleFunc(kind, d.handler(kind, fn))
	}
	mux.HandleFunc("", d.fallback)
	return mux
}

// queryFuncs are the handlers of the query types, by type.
func (d *Datasource) queryFuncs() map[string]queryFunc {
	return map[string]queryFunc{
		QueryTypeProfile:        d.queryProfile,
		QueryTypeMetrics:        d.queryMetrics,
		QueryTypeBoth:           d.queryBoth,
		QueryTypeLabels:         d.queryLabels,
		QueryTypeTopTable:       d.queryTopTable,
		QueryTypeDiff:           d.queryDiff,
		QueryTypeHistogram:      d.queryHistogram,
		QueryTypeCallSiteSeries: d.queryCallSiteSeries,
		QueryTypeNovelty:        d.queryNovelty,
		QueryTypeFunctionShare:  d.queryFunctionShare,
	}
}

// fallback answers queries without a type as "both" and refuses unknown types.
func (d *Datasource) fallback(ctx context.Context, req *backend.QueryDataRequest) (*backend.QueryDataResponse, error) {
	both := d.handler(QueryTypeBoth, d.queryBoth)
	resp := backend.NewQueryDataResponse()
	var plain []backend.DataQuery
	for _, q := range req.Queries {
		if q.QueryType == "" {
			plain = append(plain, q)
			continue
		}
		resp.Responses[q.RefID] = errorResponse(userErrorf(
			"unknown query type %q: use one of profile, metrics, both, labels, topTable, diff, histogram, callSiteSeries, novelty, functionShare", q.QueryType))
	}
	if len(plain) > 0 {
		sub := *req
		sub.Queries = plain
		r, err := both(ctx, &sub)
		if err != nil {
			return nil, err
		}
		for k, v := range r.Responses {
			resp.Responses[k] = v
		}
	}
	return resp, nil
}

// handler runs fn for every query of a request, a few at a time; each query
// fails alone, with its error under its refId.
func (d *Datasource) handler(kind string, fn queryFunc) func(context.Context, *backend.QueryDataRequest) (*backend.QueryDataResponse, error) {
	return func(ctx context.Context, req *backend.QueryDataRequest) (*backend.QueryDataResponse, error) {
		resp := backend.NewQueryDataResponse()
		var (
			mu  sync.Mutex
			wg  sync.WaitGroup
			sem = make(chan struct{}, maxParallelQueries)
		)
		for _, q := range req.Queries {
			wg.Add(1)
			sem <- struct{}{}
			go func() {
				defer func() { <-sem; wg.Done() }()
				r, parsed := d.runOne(ctx, kind, q, fn)
				if parsed != nil && parsed.Live != nil && r.Error == nil {
					d.announceStream(req.PluginContext, kind, q, &r)
				}
				mu.Lock()
				resp.Responses[q.RefID] = r
				mu.Unlock()
			}()
		}
		wg.Wait()
		return resp, nil
	}
}

// runOne parses one query, runs it in a span and shapes its response; it
// returns the parsed request too (nil when the query did not parse).
func (d *Datasource) runOne(ctx context.Context, kind string, q backend.DataQuery, fn queryFunc) (backend.DataResponse, *request) {
	ctx, span := tracing.DefaultTracer().Start(ctx, "emberscope.query."+kind, trace.WithAttributes(
		attribute.String("ref_id", q.RefID),
		attribute.String("query_type", kind),
	))
	defer span.End()
	r, err := parseRequest(q, d.settings.MinStep)
	var frames data.Frames
	if err == nil {
		span.SetAttributes(attribute.String("query", r.Query.String()))
		var split *rangesplit.Report
		ctx, split = rangesplit.WithReport(ctx)
		frames, err = fn(ctx, r)
		noticeSplit(frames, split)
	}
	queriesTotal.WithLabelValues(kind, outcome(err)).Inc()
	if err != nil {
		span.RecordError(err)
		span.SetStatus(codes.Error, err.Error())
		resp := errorResponse(err)
		if resp.ErrorSource == backend.ErrorSourcePlugin {
			d.logger.Error("query failed", "refId", q.RefID, "queryType", kind, "error", err)
		}
		return resp, r
	}
	for _, f := range frames {
		f.RefID = q.RefID
	}
	return backend.DataResponse{Frames: frames}, r
}
