module github.com/emberscope/emberscope/x/k6

go 1.25.0

require go.opentelemetry.io/otel v1.46.0
