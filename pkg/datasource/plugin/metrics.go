// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"

	"github.com/grafana/grafana-plugin-sdk-go/backend"
)

// queriesTotal counts queries by type and outcome. It is registered on the
// default registry, which the SDK serves for CollectMetrics.
var queriesTotal = promauto.NewCounterVec(prometheus.CounterOpts{
	Namespace: "emberscope",
	Name:      "datasource_queries_total",
	Help:      "Queries answered by the Emberscope datasource, by query type and outcome.",
}, []string{"query_type", "outcome"})

// resourceCallsTotal counts resource calls by route and outcome.
var resourceCallsTotal = promauto.NewCounterVec(prometheus.CounterOpts{
	Namespace: "emberscope",
	Name:      "datasource_resource_calls_total",
	Help:      "Resource calls answered by the Emberscope datasource, by route and outcome.",
}, []string{"route", "outcome"})

// outcome names the result of a call for metrics: ok, user_error,
// downstream_error or plugin_error.
func outcome(err error) string {
	if err == nil {
		return "ok"
	}
	r := errorResponse(err)
	switch {
	case r.Status == backend.StatusBadRequest:
		return "user_error"
	case r.ErrorSource == backend.ErrorSourceDownstream:
		return "downstream_error"
	default:
		return "plugin_error"
	}
}
