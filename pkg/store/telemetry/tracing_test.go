// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package telemetry

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTracingIsOffUnlessTheEnvironmentAsks(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		want bool
	}{
		{map[string]string{}, false},
		{map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318"}, true},
		{map[string]string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://127.0.0.1:4318/v1/traces"}, true},
		{map[string]string{"OTEL_TRACES_EXPORTER": "otlp"}, true},
		{map[string]string{"OTEL_TRACES_EXPORTER": "none", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318"}, false},
		{map[string]string{"OTEL_SDK_DISABLED": "true", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318"}, false},
	} {
		got := TracingEnabled(func(k string) string { return tc.env[k] })
		assert.Equal(t, tc.want, got, "%v", tc.env)
	}
}

func TestSetupTracingWithoutEnvironmentRecordsNothing(t *testing.T) {
	for _, k := range []string{"OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_TRACES_EXPORTER", "OTEL_SDK_DISABLED"} {
		t.Setenv(k, "")
	}
	tr, err := SetupTracing(context.Background())
	require.NoError(t, err)
	assert.False(t, tr.Enabled)
	_, span := tr.Provider.Tracer("t").Start(context.Background(), "x")
	assert.False(t, span.IsRecording())
	assert.NoError(t, tr.Shutdown(context.Background()))
}

func TestSetupTracingRefusesAnUnknownProtocol(t *testing.T) {
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318")
	t.Setenv("OTEL_EXPORTER_OTLP_PROTOCOL", "http/json")
	_, err := SetupTracing(context.Background())
	require.Error(t, err)
	assert.Contains(t, err.Error(), `"http/json"`)
}
