// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Package metrics holds the store's Prometheus metrics, registered on a
// registry of their own so that several stores can live in one process.
package metrics

import (
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Metrics are the ingest and storage metrics of one store.
type Metrics struct {
	Registry *prometheus.Registry

	// ReceivedCompressedBytes counts request bodies as received, per API.
	ReceivedCompressedBytes *prometheus.CounterVec
	// ReceivedUncompressedBytes counts profile bytes after decompression, per API.
	ReceivedUncompressedBytes *prometheus.CounterVec
	// ProfileSizeBytes is the distribution of profile sizes, per encoding (compressed, uncompressed).
	ProfileSizeBytes *prometheus.HistogramVec
	// ProfilesIngested counts stored profiles per profile type.
	ProfilesIngested *prometheus.CounterVec
	// ProfilesReceived counts stored profiles per profile type and service.
	ProfilesReceived *ProfilesReceived
	// IngestErrors counts refused requests per reason.
	IngestErrors *prometheus.CounterVec
	// StoredBytes counts key and value bytes written to the database.
	StoredBytes prometheus.Counter
}

// New registers the metrics on a new registry (with Go and process collectors).
func New() *Metrics {
	r := prometheus.NewRegistry()
	m := &Metrics{
		Registry: r,
		ReceivedCompressedBytes: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "emberscope_ingest_received_compressed_bytes_total",
			Help: "Bytes of profile payloads as received (before decompression), by API.",
		}, []string{"api"}),
		ReceivedUncompressedBytes: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "emberscope_ingest_received_uncompressed_bytes_total",
			Help: "Bytes of profile payloads after decompression, by API.",
		}, []string{"api"}),
		ProfileSizeBytes: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "emberscope_ingest_profile_size_bytes",
			Help:    "Size of received profiles, compressed and uncompressed.",
			Buckets: prometheus.ExponentialBuckets(256, 4, 10),
		}, []string{"encoding"}),
		ProfilesIngested: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "emberscope_ingest_profiles_total",
			Help: "Profiles stored, by profile type.",
		}, []string{"profile_type"}),
		IngestErrors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "emberscope_ingest_errors_total",
			Help: "Refused or failed ingest requests, by reason.",
		}, []string{"reason"}),
		ProfilesReceived: NewProfilesReceived(MaxServiceLabels),
		StoredBytes: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "emberscope_store_written_bytes_total",
			Help: "Key and value bytes written to the database.",
		}),
	}
	r.MustRegister(m.ReceivedCompressedBytes, m.ReceivedUncompressedBytes, m.ProfileSizeBytes,
		m.ProfilesIngested, m.ProfilesReceived, m.IngestErrors, m.StoredBytes,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Handler serves the metrics in the Prometheus exposition format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.Registry, promhttp.HandlerOpts{})
}
