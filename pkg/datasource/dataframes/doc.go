// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Package dataframes turns trees, series and tables into Grafana data frames.
//
// Every builder here is pure: it takes our own types (a flame.Tree, source
// series, table rows) and returns frames shaped so that Grafana's built-in
// visualisations read them as well as Emberscope's own panel does (see
// docs/design.md §5). Units are Grafana unit ids, derived from a profile type's
// sample unit by UnitFor.
package dataframes
