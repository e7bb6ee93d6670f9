// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Package model is the datasource's domain model, shared by the query
// language, the server clients and the plugin: profile types and their
// Pyroscope IDs, the label names Pyroscope reserves, label sets and their map
// keys, the errors of a profile server, the kinds of server and the check of
// a server's URL. It follows Grafana Pyroscope's conventions (its
// pkg/model) and depends on nothing of ours nor on Grafana's SDK, so that
// the store, the clients and x/k6 can all use it.
package model
