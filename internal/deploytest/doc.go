// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Package deploytest holds the tests of what ships beside the plugin and
// cannot run here (no Docker engine, no Kubernetes, no Grafana): the store's
// Dockerfile (its entrypoint is run as the image would run it),
// docker-compose.yaml, the Helm chart (rendered with the template functions
// it uses) and the deploy script (run against local stand-ins).
package deploytest
