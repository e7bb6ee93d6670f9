//go:build tools

package main

import (
	_ "connectrpc.com/connect"
	_ "github.com/cockroachdb/pebble/v2"
	_ "github.com/google/pprof/profile"
	_ "github.com/grafana/grafana-plugin-sdk-go/backend"
	_ "github.com/grafana/grafana-plugin-sdk-go/build"
	_ "github.com/grafana/pyroscope/api/gen/proto/go/querier/v1/querierv1connect"
	_ "github.com/grafana/pyroscope/api/gen/proto/go/push/v1/pushv1connect"
	_ "github.com/prometheus/client_golang/prometheus"
	_ "github.com/prometheus/prometheus/promql/parser"
	_ "github.com/stretchr/testify/require"
	_ "github.com/grafana/pyroscope-go"
	_ "go.opentelemetry.io/otel/baggage"
)
